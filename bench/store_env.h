// For the benches that run on an existing store named by $STORE
// (read_path, play_path): opening it and reading their counts from the
// environment.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <utility>

#include <benchmark/benchmark.h>

#include "storage/store.h"

namespace foundry::bench {

// $name as a number, or `fallback` when it is unset.
inline uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* env = std::getenv(name);
  return env != nullptr ? std::strtoull(env, nullptr, 10) : fallback;
}

// The store of $STORE, opened (never created) with a row cache of
// `row_cache_bytes`; nullptr after telling `state` why not.
inline std::unique_ptr<storage::Store> OpenBenchStore(benchmark::State& state,
                                                      uint64_t row_cache_bytes = 0) {
  const char* dir = std::getenv("STORE");
  if (dir == nullptr) {
    state.SkipWithError("set STORE to a copy of a store that no process has open");
    return nullptr;
  }
  storage::StoreOptions options;
  options.create_if_missing = false;
  options.row_cache_bytes = row_cache_bytes;
  auto opened = storage::Store::Open(dir, options);
  if (!opened.ok()) {
    state.SkipWithError(opened.status().ToString().c_str());
    return nullptr;
  }
  return std::move(opened).value();
}

}  // namespace foundry::bench
