// The checks a worker runs on candidates, shared by the generator (its
// claims), the verifier (verdicts and re-generation) and the coordinator
// (arbitration when the two disagree), so that all three compute the same
// thing the same way.
//
// Thread safety: pure functions; call from any thread.
#pragma once

#include <cstdint>

#include "foundry/v1/worker.pb.h"
#include "puzzles/family.h"

namespace foundry::checks {

// The generator's claim for an accepted candidate: its JSON, grade and the
// id of its canonical bytes.
foundry::v1::GeneratedPuzzle ClaimFor(const puzzles::Family& family, uint64_t index,
                                      const puzzles::Accepted& accepted);

// Judges a submitted puzzle from its puzzle and solution JSON alone with the
// family's independent Verify; never trusts its id or difficulty fields.
foundry::v1::PuzzleVerdict VerifyPuzzle(const puzzles::Family& family,
                                        const foundry::v1::GeneratedPuzzle& submitted);

// Re-generates candidate `index` of the stream (seed, params).
// REQUIRES: params came from family.MakeParams().
foundry::v1::Regenerated Regenerate(const puzzles::Family& family, const puzzles::Params& params,
                                    uint64_t seed, uint64_t index);

// Writes grade `d` in its wire form (the details as JSON text) to `out`.
void SetDifficulty(const puzzles::Difficulty& d, foundry::v1::Difficulty* out);

// The same grade: level, score and details compare equal.
bool SameDifficulty(const foundry::v1::Difficulty& a, const foundry::v1::Difficulty& b);

}  // namespace foundry::checks
