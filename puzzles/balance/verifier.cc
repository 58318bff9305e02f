#include "puzzles/balance/verifier.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/balance/codec.h"
#include "puzzles/balance/difficulty.h"

namespace foundry::puzzles::balance {
namespace {

std::string Describe(const Hypothesis& h) {
  return fmt::format("coin {} {}", h.coin, h.heavier ? "heavier" : "lighter");
}

Result<Difficulty> VerifyDeduction(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto parsed = ParseDeduction(puzzle);
  if (!parsed.ok()) return parsed.status();
  const DeductionPuzzle& p = *parsed;
  auto answer = ParseDeductionSolution(solution, p.coins);
  if (!answer.ok()) return answer.status();

  std::vector<uint32_t> masks;
  std::vector<Hypothesis> consistent;
  for (int c = 1; c <= p.coins; ++c) {
    for (bool heavier : {true, false}) {
      const Hypothesis h{c, heavier};
      uint32_t mask = 0;
      for (size_t k = 0; k < p.weighings.size(); ++k) {
        if (Weigh(p.weighings[k], h) != p.outcomes[k]) mask |= 1u << k;
      }
      masks.push_back(mask);
      if (mask == 0) consistent.push_back(h);
      if (h == *answer && mask != 0) {
        int k = 0;
        while (!(mask & (1u << k))) ++k;
        return Status::FailedPrecondition(
            fmt::format("the solution ({}) contradicts weighing {}", Describe(h), k + 1));
      }
    }
  }
  if (consistent.size() > 1) {
    return Status::FailedPrecondition(
        fmt::format("{} answers fit every weighing (e.g. {} and {}): the answer is not unique",
                    consistent.size(), Describe(consistent[0]), Describe(consistent[1])));
  }
  std::vector<std::string> keys;
  for (size_t k = 0; k < p.weighings.size(); ++k) {
    keys.push_back(WeighingKey(p.weighings[k], p.outcomes[k]));
  }
  return RateDeduction(masks, keys);
}

class TreeChecker {
 public:
  explicit TreeChecker(const StrategyPuzzle& p) : p_(p) {}

  // Checks `node` for the hypotheses `alive` with `left` weighings left.
  Status Check(const nlohmann::json& node, const std::vector<Hypothesis>& alive, int left,
               const std::string& where) {
    if (!node.is_object()) return Status::InvalidArgument(where + " must be an object");
    if (node.contains("coin")) return CheckLeaf(node, alive, where);
    if (left == 0) {
      return Status::FailedPrecondition(
          fmt::format("{} weighs again after {} weighings", where, p_.weighings));
    }
    for (const auto& [key, value] : node.items()) {
      if (key != "left" && key != "right" && key != "left_heavy" && key != "balanced" &&
          key != "right_heavy") {
        return Status::InvalidArgument(fmt::format(
            "{} has unknown key '{}' (known: left, right, left_heavy, balanced, right_heavy; "
            "or coin, heavier)",
            where, QuoteInput(key)));
      }
    }
    auto w = ParsePans(node, p_.coins, p_.variant == Variant::kReference, where);
    if (!w.ok()) return w.status();
    for (Outcome o : {Outcome::kLeftHeavy, Outcome::kBalanced, Outcome::kRightHeavy}) {
      std::vector<Hypothesis> part;
      for (const Hypothesis& h : alive) {
        if (Weigh(*w, h) == o) part.push_back(h);
      }
      const std::string name(OutcomeName(o));
      const auto branch = node.find(name);
      if (part.empty()) {
        if (branch != node.end()) {
          return Status::FailedPrecondition(
              fmt::format("{}: branch {} is reached by no coin", where, name));
        }
        continue;
      }
      if (branch == node.end()) {
        return Status::FailedPrecondition(
            fmt::format("{}: no branch {} for {}", where, name, Describe(part[0])));
      }
      FOUNDRY_RETURN_IF_ERROR(Check(*branch, part, left - 1, where + " " + name));
    }
    return Status::Ok();
  }

 private:
  Status CheckLeaf(const nlohmann::json& node, const std::vector<Hypothesis>& alive,
                   const std::string& where) {
    Hypothesis h;
    const auto coin = node.find("coin");
    const auto heavier = node.find("heavier");
    if (node.size() != 2 || coin == node.end() || !coin->is_number_integer() ||
        coin->get<int64_t>() < 1 || coin->get<int64_t>() > p_.coins || heavier == node.end() ||
        !heavier->is_boolean()) {
      return Status::InvalidArgument(fmt::format(
          "{}: a leaf must be {{\"coin\": 1..{}, \"heavier\": true|false}}", where, p_.coins));
    }
    h.coin = coin->get<int>();
    h.heavier = heavier->get<bool>();
    if (alive.size() > 1) {
      const Hypothesis& other = alive[0] == h ? alive[1] : alive[0];
      return Status::FailedPrecondition(
          fmt::format("{} names {} but {} is possible too", where, Describe(h), Describe(other)));
    }
    if (!(alive[0] == h)) {
      return Status::FailedPrecondition(
          fmt::format("{} names {} but it is {}", where, Describe(h), Describe(alive[0])));
    }
    return Status::Ok();
  }

  const StrategyPuzzle& p_;
};

Result<Difficulty> VerifyStrategy(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto parsed = ParseStrategy(puzzle);
  if (!parsed.ok()) return parsed.status();
  const StrategyPuzzle& p = *parsed;
  if (!solution.is_object() || solution.size() != 1 || !solution.contains("tree")) {
    return Status::InvalidArgument("solution must be an object {\"tree\": {...}}");
  }
  std::vector<Hypothesis> all;
  for (int c = 1; c <= p.coins; ++c) {
    all.push_back({c, true});
    if (p.variant != Variant::kHeavier) all.push_back({c, false});
  }
  TreeChecker checker(p);
  FOUNDRY_RETURN_IF_ERROR(checker.Check(solution["tree"], all, p.weighings, "tree"));
  const int needed = MinWeighings(p.variant, p.coins);
  if (needed != p.weighings) {
    return Status::FailedPrecondition(
        fmt::format("not tight: {} coins ({}) need only {} weighings, not {}", p.coins,
                    VariantName(p.variant), needed, p.weighings));
  }
  return RateStrategy(p.coins, p.weighings, p.variant);
}

}  // namespace

Result<Difficulty> Verify(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto strategy = IsStrategy(puzzle);
  if (!strategy.ok()) return strategy.status();
  return *strategy ? VerifyStrategy(puzzle, solution) : VerifyDeduction(puzzle, solution);
}

}  // namespace foundry::puzzles::balance
