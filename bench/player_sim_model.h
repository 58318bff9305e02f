// The player simulator's hidden world and its yardsticks (bench/player_sim.cc,
// docs/players.md "The player simulator"): what each simulated player and
// puzzle really is, what a play's answer is, and how the recovered ratings
// are scored against the truth. No gRPC here: unit-sized pieces the
// simulator calls from its threads.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::bench::sim {

// The hidden truth, on the store's rating scale (Glicko, 1500-centred).
//   hidden difficulty = center + per_score · (score − 0.5) + N(0, noise_sd)
//   hidden skill      = N(skill_mean, skill_sd)
//   P(solve)          = 1 / (1 + 10^(−(skill − difficulty) / 400))
// The 400·log10 logistic is Elo's and Glicko's own: a player rated r and a
// puzzle rated d, both exact, give the probability the store predicts. With
// center 1500 and per_score 1000 (the store's DefaultRatingModel) the
// store's initial rating is the hidden difficulty minus the noise; other
// values model a family whose grade maps to play differently.
struct HiddenModel {
  double center = 1500;
  double per_score = 1000;
  double noise_sd = 150;
  double skill_mean = 1500;
  double skill_sd = 350;
};

// P(solve) of a player of `skill` against a puzzle of `difficulty`.
double SolveProbability(double skill, double difficulty);

// Spearman's rank correlation with average ranks for ties (scores repeat:
// a family's grade takes a few dozen values). 0 when either side is constant
// or there are fewer than 2 pairs.
double Spearman(const std::vector<double>& a, const std::vector<double>& b);

// A right answer and a wrong one, both in the family's form: the first is
// judged solved, the second not (each checked with the family's own
// CheckAnswer before use, so the store judges what the simulator meant).
struct Answers {
  std::string right;
  std::string wrong;
};

// The family's FormatAnswer for the right answer; the wrong one by changing
// one character (then swapping two) of it, at positions and to characters
// drawn from `seed`, until CheckAnswer says well-formed and not solved.
// InvalidArgument when no such change is found.
Result<Answers> MakeAnswers(const puzzles::Family& family, const nlohmann::json& puzzle,
                            const nlohmann::json& solution, uint64_t seed);

// How well predicted probabilities forecast outcomes, against always
// predicting the base rate (the share solved).
struct Calibration {
  size_t n = 0;
  double base_rate = 0;
  double log_loss = 0;       // mean −ln p(outcome)
  double brier = 0;          // mean (p − outcome)²
  double base_log_loss = 0;  // the same for p = base_rate
  double base_brier = 0;
};
Calibration Calibrate(const std::vector<std::pair<float, bool>>& predictions);

// SplitMix64: a fast, seedable generator per thread, and a hash of
// (seed, index) for per-puzzle and per-player draws that do not depend on
// thread timing.
uint64_t Mix(uint64_t x);
double UniformOf(uint64_t bits);          // [0, 1)
double NormalOf(uint64_t a, uint64_t b);  // N(0, 1) by Box-Muller from two draws

}  // namespace foundry::bench::sim
