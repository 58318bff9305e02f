// The alignment family (seed 001, Borderlands Science): columns of coloured
// bricks, mutated copies of one ancestor; insert gaps so bricks match their
// row's guide and beat the target score. See docs/families/alignment.md and
// family.h for the contract.
//
// Thread safety: the family is immutable; every method is reentrant.
#pragma once

#include "puzzles/family.h"

namespace foundry::puzzles::alignment {

// The one instance, for the registry. Valid for the life of the program.
const Family& TheFamily();

}  // namespace foundry::puzzles::alignment
