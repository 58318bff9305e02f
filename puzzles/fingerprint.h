// The generation fingerprint: what a build's families generate, as a short
// hex string. Two processes with the same fingerprint produce the same
// candidate for the same (family, params, seed, index) as far as a sample
// can tell, so a coordinator refuses workers whose fingerprint differs from
// its own (a rolling update, another build, a changed family).
#pragma once

#include <string>

namespace foundry::puzzles {

// 16 hex digits: XXH3-64 over every registered family's name and the
// outcome (canonical bytes, puzzle, solution and grade, or the rejection
// reason) of its first candidates of a fixed seed at default parameters.
// Computed once per process on first use (a few milliseconds).
const std::string& GenerationFingerprint();

}  // namespace foundry::puzzles
