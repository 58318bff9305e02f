// What one GetPuzzle costs the coordinator below gRPC, in process, on a real
// store: the store read and the answer's bytes, the way the service made
// them before (GetPuzzle: parse the record, fill plays, serialise the
// message) and now (GetPuzzleRecord + PresentRecord: the record's bytes
// passed through), each with and without a RocksDB row cache. Ids are drawn
// at random from the store's first POOL ids in id order (ids are hashes, so
// a uniform subset, like the sampled pool store_load's get draws from).
//
//   STORE=/path/to/store build/bin/read_path [--benchmark_repetitions=3]
// (bench/read_floor.sh makes such a store: `foundry run --db DIR ...`; the
// store must not be open in another process.) Env: POOL (50000).
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/store_env.h"
#include "coordinator/puzzle_wire.h"
#include "storage/store.h"

namespace {

using foundry::storage::Store;

std::vector<std::string> Pool(Store& store) {
  const uint64_t n = foundry::bench::EnvOr("POOL", 50'000);
  std::vector<std::string> ids;
  (void)store.Scan({}, "", n, [&](const foundry::v1::Puzzle& p) {
    ids.push_back(p.id());
    return true;
  });
  return ids;
}

// Runs `read` on random ids of the pool; arg 0 is the row cache in MiB.
template <typename Read>
void RunReads(benchmark::State& state, Read&& read) {
  auto store = foundry::bench::OpenBenchStore(state, static_cast<uint64_t>(state.range(0)) << 20);
  if (!store) return;
  const std::vector<std::string> ids = Pool(*store);
  if (ids.empty()) {
    state.SkipWithError("the store holds no puzzles");
    return;
  }
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<size_t> pick(0, ids.size() - 1);
  for (int i = 0; i < 200'000; ++i) read(*store, ids[pick(rng)]);  // warm the caches
  size_t bytes = 0;
  for (auto _ : state) bytes += read(*store, ids[pick(rng)]);
  state.counters["answer_bytes"] =
      static_cast<double>(bytes) / static_cast<double>(state.iterations());
}

// The service before: the record parsed into a Puzzle, plays filled, the
// solution cleared, the observed level set, the message serialised.
void BM_GetPuzzleParsed(benchmark::State& state) {
  RunReads(state, [](Store& store, const std::string& id) {
    auto p = store.GetPuzzle(id);
    if (!p.ok()) std::abort();
    p->clear_solution_json();
    foundry::coordinator::SetObservedLevel(p->mutable_observed());
    std::string out = p->SerializeAsString();
    benchmark::DoNotOptimize(out);
    return out.size();
  });
}

// The service now: the record's bytes and plays, passed through.
void BM_GetPuzzleRecordPresented(benchmark::State& state) {
  RunReads(state, [](Store& store, const std::string& id) {
    auto rec = store.GetPuzzleRecord(id);
    if (!rec.ok()) std::abort();
    auto out = foundry::coordinator::PresentRecord(id, rec->bytes, rec->plays, false);
    if (!out.ok()) std::abort();
    benchmark::DoNotOptimize(*out);
    return out->size();
  });
}

BENCHMARK(BM_GetPuzzleParsed)->Arg(0)->Arg(64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GetPuzzleRecordPresented)->Arg(0)->Arg(64)->Unit(benchmark::kMicrosecond);

}  // namespace
