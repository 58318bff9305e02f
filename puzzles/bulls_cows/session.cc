#include "puzzles/bulls_cows/session.h"

#include <cassert>

#include <fmt/format.h>

namespace foundry::puzzles::bulls_cows {

Session::Session(int length, bool leading_zero, StrategyKind kind)
    : universe_(Universe::For(length, leading_zero)),
      kind_(kind),
      left_(universe_.allowed().begin(), universe_.allowed().end()) {}

std::string Session::Guess() {
  assert(!solved_);
  if (!pending_) {
    history_.push_back({NextGuess(universe_, left_, kind_, guesses()), 0});
    pending_ = true;
  }
  return universe_.Text(history_.back().guess);
}

Status Session::Answer(int bulls, int cows) {
  assert(pending_);
  const int n = length();
  if (bulls < 0 || cows < 0 || bulls + cows > n || (bulls == n - 1 && cows == 1)) {
    return Status::InvalidArgument(
        fmt::format("{} bulls and {} cows is not a possible answer for {} digits", bulls, cows, n));
  }
  Turn& turn = history_.back();
  turn.score = MakeScore(bulls, cows);
  std::vector<uint32_t> next = Consistent(universe_, left_, turn.guess, turn.score);
  if (next.empty()) {
    const std::string why = Explain();
    return Status::FailedPrecondition(why);
  }
  pending_ = false;
  left_ = std::move(next);
  solved_ = bulls == n;
  return Status::Ok();
}

// Called with the current answer recorded in history_.back(): no code fits
// every answer. Finds the answers whose change alone would leave some code.
std::string Session::Explain() const {
  std::vector<std::string> suspects;
  for (size_t skip = 0; skip < history_.size(); ++skip) {
    bool any = false;
    for (uint32_t code : universe_.allowed()) {
      bool ok = true;
      for (size_t k = 0; ok && k < history_.size(); ++k) {
        ok = k == skip || universe_.Score(history_[k].guess, code) == history_[k].score;
      }
      if (ok) {
        any = true;
        break;
      }
    }
    if (any) {
      suspects.push_back(fmt::format("guess {} ({}: {} bulls, {} cows)", skip + 1,
                                     universe_.Text(history_[skip].guess),
                                     BullsOf(history_[skip].score), CowsOf(history_[skip].score)));
    }
  }
  std::string msg = fmt::format(
      "the answers are inconsistent: no {}-digit number with different digits{} gives them all",
      length(), universe_.leading_zero() ? "" : " (no leading zero)");
  if (!suspects.empty()) {
    msg += fmt::format("; check the answer to {}", fmt::join(suspects, " or "));
  }
  return msg;
}

}  // namespace foundry::puzzles::bulls_cows
