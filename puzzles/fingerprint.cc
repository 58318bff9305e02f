#include "puzzles/fingerprint.h"

#include <variant>

#include <fmt/format.h>
#include <xxhash.h>

#include "puzzles/registry.h"

namespace foundry::puzzles {
namespace {

// Enough candidates that every family accepts some at its defaults, few
// enough that a worker starts at once.
constexpr uint64_t kCandidates = 6;
constexpr uint64_t kSeed = 0x5eedf1a6e7ULL;

std::string Compute() {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  auto add = [&](std::string_view s) {
    XXH3_64bits_update(state, s.data(), s.size());
    XXH3_64bits_update(state, "", 1);  // a separator, so "ab"+"c" != "a"+"bc"
  };
  for (const Family* family : AllFamilies()) {
    add(family->name());
    auto params = family->MakeParams(std::map<std::string, std::string>{});
    if (!params.ok()) {
      add(params.status().message());
      continue;
    }
    for (uint64_t i = 0; i < kCandidates; ++i) {
      Rng rng = CandidateRng(kSeed, i);
      Candidate c = family->Generate(rng, *params);
      if (const auto* a = std::get_if<Accepted>(&c)) {
        add(family->CanonicalBytes(a->puzzle));
        add(a->puzzle.dump());
        add(a->solution.dump());
        add(a->difficulty.ToJson().dump());
      } else {
        add(std::get<Rejected>(c).reason);
      }
    }
  }
  const uint64_t h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return fmt::format("{:016x}", h);
}

}  // namespace

const std::string& GenerationFingerprint() {
  static const std::string fingerprint = Compute();
  return fingerprint;
}

}  // namespace foundry::puzzles
