// The verifier's zebra solver, independent of solver.h: textbook MAC search
// (maintaining arc consistency). Each clue is used only through Holds()
// (model.h), its definition: a value stays in an item's domain while some
// value of the other item makes the clue hold; an item with one house left
// removes it from the rest of its category (the pairwise not-equal
// constraints); then it branches on an open item with the fewest houses.
// None of solver.h's per-type bit rules, hidden singles or try-values is
// used, so Verify() does not trust the generator's solver.
//
// Thread safety: a pure function.
#pragma once

#include "puzzles/zebra/codec.h"
#include "puzzles/zebra/model.h"

namespace foundry::puzzles::zebra {

// Solutions of `p`, counted up to `limit` (>= 1); the first goes to *first
// when it is not null.
int IndependentCount(const ParsedPuzzle& p, int limit, Placement* first = nullptr);

}  // namespace foundry::puzzles::zebra
