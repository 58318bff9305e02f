// The generation fingerprint (fingerprint.h) is what lets workers of one
// release join a coordinator of another. It must move only when a family's
// candidates change on purpose: a rewrite meant to be faster and nothing
// else (a solver, the grader) has to leave it as it was.
#include "puzzles/fingerprint.h"

#include <gtest/gtest.h>

namespace foundry::puzzles {
namespace {

TEST(GenerationFingerprint, MovesOnlyWhenAFamilyChangesOnPurpose) {
  // When a change of candidates is intended: put the new value here, and say
  // in the release notes that workers of the previous release are refused
  // (docs/operations.md, "Versions").
  EXPECT_EQ(GenerationFingerprint(), "bde44413537985f7");
}

}  // namespace
}  // namespace foundry::puzzles
