// The nonogram family (paint by numbers): fill a W x H grid so that every
// row and column shows its clue, the lengths of its runs of filled cells in
// order. Unique by construction and by Verify's own search, graded by the
// deductions a person needs (grader.h). See docs/families/nonogram.md.
//
// Thread safety: the family is immutable; every method is reentrant.
#pragma once

#include "puzzles/family.h"

namespace foundry::puzzles::nonogram {

// The one instance, for the registry. Valid for the life of the program.
const Family& TheFamily();

}  // namespace foundry::puzzles::nonogram
