#include "puzzles/bulls_cows/verifier.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "puzzles/bulls_cows/codec.h"
#include "puzzles/bulls_cows/difficulty.h"

namespace foundry::puzzles::bulls_cows {
namespace {

// A clue prepared for scoring: where each digit sits in the guess.
struct Probe {
  int position[10];
  int bulls;
  int cows;
};

Probe MakeProbe(const Clue& c) {
  Probe p;
  for (int& x : p.position) x = -1;
  for (size_t i = 0; i < c.guess.size(); ++i) p.position[c.guess[i] - '0'] = static_cast<int>(i);
  p.bulls = c.bulls;
  p.cows = c.cows;
  return p;
}

// True when secret digits `d` answer the probe's clue as it says.
bool Answers(const Probe& p, const int* d, int length) {
  int bulls = 0, cows = 0;
  for (int i = 0; i < length; ++i) {
    const int at = p.position[d[i]];
    bulls += at == i;
    cows += at >= 0 && at != i;
  }
  return bulls == p.bulls && cows == p.cows;
}

}  // namespace

Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto parsed = ParsePuzzle(puzzle);
  if (!parsed.ok()) return parsed.status();
  const ParsedPuzzle& p = *parsed;
  auto secret = ParseSolution(solution, p);
  if (!secret.ok()) return secret.status();

  std::vector<Probe> probes;
  std::vector<uint64_t> keys;
  for (size_t k = 0; k < p.clues.size(); ++k) {
    const Clue& c = p.clues[k];
    if (c.guess == *secret) {
      return Status::FailedPrecondition(
          fmt::format("clue {} guesses the secret {}", k + 1, c.guess));
    }
    probes.push_back(MakeProbe(c));
    keys.push_back(std::stoull(c.guess) * 64 + static_cast<uint64_t>(c.bulls * 7 + c.cows));
  }

  int limit = 1;
  for (int k = 0; k < p.length; ++k) limit *= 10;
  std::vector<uint32_t> masks;
  std::vector<int> survivors;
  int secret_value = std::stoi(*secret);
  bool secret_seen = false;
  for (int v = 0; v < limit; ++v) {
    int d[10];
    unsigned seen = 0;
    bool distinct = true;
    int x = v;
    for (int k = p.length - 1; k >= 0; --k, x /= 10) {
      d[k] = x % 10;
      distinct = distinct && !(seen & (1u << d[k]));
      seen |= 1u << d[k];
    }
    if (!distinct || (!p.leading_zero && d[0] == 0)) continue;
    uint32_t mask = 0;
    for (size_t k = 0; k < probes.size(); ++k) {
      if (!Answers(probes[k], d, p.length)) mask |= 1u << k;
    }
    masks.push_back(mask);
    if (v == secret_value) {
      secret_seen = true;
      if (mask != 0) {
        int k = 0;
        while (!(mask & (1u << k))) ++k;
        return Status::FailedPrecondition(
            fmt::format("the solution {} does not answer clue {} ({}) as it says", *secret, k + 1,
                        p.clues[k].guess));
      }
    }
    if (mask == 0 && survivors.size() < 2) survivors.push_back(v);
  }
  if (!secret_seen) return Status::Internal("the solution was not enumerated");
  int64_t consistent = 0;
  for (uint32_t m : masks) consistent += m == 0;
  if (consistent > 1) {
    const auto text = [&](int v) { return fmt::format("{:0{}}", v, p.length); };
    return Status::FailedPrecondition(
        fmt::format("{} codes answer all {} clues (e.g. {} and {}): the secret is not unique",
                    consistent, p.clues.size(), text(survivors[0]), text(survivors[1])));
  }
  return RateDifficulty(masks, keys);
}

}  // namespace foundry::puzzles::bulls_cows
