// One game of the inverse problem, as `foundry solve bulls-cows` plays it:
// the computer guesses, a person answers bulls and cows. The session keeps
// the codes consistent with every answer and asks the strategy for the next
// guess; it never does I/O, so the command line and the tests drive it the
// same way.
//
// Usage: Guess() -> show it -> Answer(bulls, cows) -> until solved().
//
// Thread safety: a Session is owned by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "puzzles/bulls_cows/codes.h"
#include "puzzles/bulls_cows/strategy.h"

namespace foundry::puzzles::bulls_cows {

class Session {
 public:
  // REQUIRES: kMinLength <= length <= kMaxLength.
  Session(int length, bool leading_zero, StrategyKind kind);

  int length() const { return universe_.length(); }
  // How many codes are still possible.
  size_t candidates() const { return left_.size(); }
  // True once an answer said every digit is a bull.
  bool solved() const { return solved_; }
  // The guesses made so far, the last one included.
  int guesses() const { return static_cast<int>(history_.size()); }

  // The next guess, e.g. "0123". The first call after an Answer() (or at
  // the start) picks it; later calls repeat it. REQUIRES: !solved().
  std::string Guess();

  // Records the answer to the current guess. Errors, leaving the session as
  // it was: InvalidArgument for an answer no code can give (negative, more
  // than the length in total, or all bulls but one with one cow);
  // FailedPrecondition when no code is consistent with all answers so far
  // (the message lists the earlier answers that, if mistyped, would explain
  // it). REQUIRES: Guess() was called since the last Answer().
  Status Answer(int bulls, int cows);

 private:
  struct Turn {
    uint32_t guess;
    int score;
  };
  std::string Explain() const;

  const Universe& universe_;
  StrategyKind kind_;
  std::vector<uint32_t> left_;
  std::vector<Turn> history_;
  bool pending_ = false;  // Guess() made, not answered yet
  bool solved_ = false;
};

}  // namespace foundry::puzzles::bulls_cows
