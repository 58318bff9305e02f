// The bulls-cows Guesser (puzzles/guesser.h): a Session (session.h) behind
// the family-neutral interface that `foundry solve` drives. Answers are two
// numbers, bulls then cows: "1 2", "1,2", "1b 2c" or "1b2c".
#pragma once

#include <memory>
#include <string_view>

#include "common/status.h"
#include "puzzles/guesser.h"

namespace foundry::puzzles::bulls_cows {

// A guesser for a secret of `length` different digits (leading zero allowed
// with `leading_zero`), with strategy "optimal" (the shipped tree where
// there is one, else "ours"; the default when empty), "ours" (entropy) or
// "seed" (the first consistent code). InvalidArgument for another
// strategy. REQUIRES: kMinLength <= length <= kMaxLength.
Result<std::unique_ptr<Guesser>> NewGuesser(int length, bool leading_zero,
                                            std::string_view strategy);

}  // namespace foundry::puzzles::bulls_cows
