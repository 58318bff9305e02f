// The secret-number family (seed 000, "My Secret Number"): a hidden number
// of `digits` digits and random rules that leave exactly one candidate.
// See docs/families/secret-number.md and family.h for the contract.
//
// Thread safety: the family is immutable; every method is reentrant.
#pragma once

#include "puzzles/family.h"

namespace foundry::puzzles::secret_number {

// The one instance, for the registry. Valid for the life of the program.
const Family& TheFamily();

}  // namespace foundry::puzzles::secret_number
