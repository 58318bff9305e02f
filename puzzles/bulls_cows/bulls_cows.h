// The bulls-cows family (seed 003, Mastermind / Bulls and Cows): clues
// (guess, bulls, cows) that leave exactly one secret of `length` distinct
// digits. See docs/families/bulls-cows.md and family.h for the
// contract; strategy.h holds the guessing strategies (the inverse problem).
//
// Thread safety: the family is immutable; every method is reentrant.
#pragma once

#include "puzzles/family.h"

namespace foundry::puzzles::bulls_cows {

// The one instance, for the registry. Valid for the life of the program.
const Family& TheFamily();

}  // namespace foundry::puzzles::bulls_cows
