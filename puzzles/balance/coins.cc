#include "puzzles/balance/coins.h"

#include <algorithm>

namespace foundry::puzzles::balance {

std::string_view VariantName(Variant v) {
  switch (v) {
    case Variant::kUnknown:
      return "unknown";
    case Variant::kHeavier:
      return "heavier";
    case Variant::kReference:
      return "reference";
  }
  return "unknown";
}

std::optional<Variant> ParseVariant(std::string_view name) {
  for (Variant v : {Variant::kUnknown, Variant::kHeavier, Variant::kReference}) {
    if (VariantName(v) == name) return v;
  }
  return std::nullopt;
}

std::string_view OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kLeftHeavy:
      return "left_heavy";
    case Outcome::kBalanced:
      return "balanced";
    case Outcome::kRightHeavy:
      return "right_heavy";
  }
  return "balanced";
}

std::optional<Outcome> ParseOutcome(std::string_view name) {
  for (Outcome o : {Outcome::kLeftHeavy, Outcome::kBalanced, Outcome::kRightHeavy}) {
    if (OutcomeName(o) == name) return o;
  }
  return std::nullopt;
}

Outcome Weigh(const Weighing& w, const Hypothesis& h) {
  const auto on = [&](const std::vector<int>& pan) {
    return std::find(pan.begin(), pan.end(), h.coin) != pan.end();
  };
  if (on(w.left)) return h.heavier ? Outcome::kLeftHeavy : Outcome::kRightHeavy;
  if (on(w.right)) return h.heavier ? Outcome::kRightHeavy : Outcome::kLeftHeavy;
  return Outcome::kBalanced;
}

int64_t MaxCoins(Variant v, int weighings) {
  int64_t p = 1;
  for (int k = 0; k < weighings; ++k) p *= 3;
  switch (v) {
    case Variant::kUnknown:
      return (p - 3) / 2;
    case Variant::kReference:
      return (p - 1) / 2;
    case Variant::kHeavier:
      return p;
  }
  return 0;
}

int MinWeighings(Variant v, int coins) {
  if (v == Variant::kUnknown && coins < 3) return -1;
  for (int k = 0;; ++k) {
    if (MaxCoins(v, k) >= coins) return k;
  }
}

}  // namespace foundry::puzzles::balance
