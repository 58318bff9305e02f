// Guesser: the inverse problem of a family that has one (`foundry solve`):
// the computer guesses a secret that a person holds, and the person answers
// each guess (bulls-cows: bulls and cows). It never does I/O, so the command
// line and the tests drive it the same way.
//
// Usage: Guess() -> show it -> Answer(text) -> until solved().
// Thread safety: a Guesser is owned by one thread.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace foundry::puzzles {

class Guesser {
 public:
  virtual ~Guesser() = default;

  // What the person should think of and how to answer; one or more lines,
  // ending with a newline.
  virtual std::string Intro() const = 0;
  // The next guess with what is known so far, e.g. "0123   (5040 possible)".
  // The first call after an Answer() (or at the start) picks it; later
  // calls repeat it. REQUIRES: !solved().
  virtual std::string Guess() = 0;
  // The prompt for an answer, e.g. "bulls cows> ".
  virtual std::string AnswerPrompt() const = 0;
  // Reads and records the answer to the current guess. Errors, leaving the
  // guesser as it was: InvalidArgument for text that is not an answer (the
  // message shows the form); FailedPrecondition when no secret fits every
  // answer so far (the message says which earlier answers to check).
  // REQUIRES: Guess() was called since the last Answer().
  virtual Status Answer(std::string_view text) = 0;
  // True once an answer said the last guess was the secret.
  virtual bool solved() const = 0;
  // The guesses made so far, the last one included.
  virtual int guesses() const = 0;
  // The last guess, as Guess() showed it without the figures ("0123").
  virtual std::string last_guess() const = 0;
};

}  // namespace foundry::puzzles
