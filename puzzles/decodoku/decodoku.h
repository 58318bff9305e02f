// The decodoku family (seed 004, Decodoku): a grid of numbers left by the
// game's noise; clear it by moving numbers onto neighbours (adding mod 10)
// in as few moves as possible. See docs/families/decodoku.md and family.h
// for the contract.
//
// Thread safety: the family is immutable; every method is reentrant.
#pragma once

#include "puzzles/family.h"

namespace foundry::puzzles::decodoku {

// The one instance, for the registry. Valid for the life of the program.
const Family& TheFamily();

}  // namespace foundry::puzzles::decodoku
