// Process-wide settings of the libraries under gRPC, made once at the top of
// every program's main(), before any thread or mutex exists.
#pragma once

namespace foundry {

// Turns off abseil's Mutex deadlock detection. Debian's abseil is built
// without NDEBUG, so every absl::Mutex (gRPC's mutexes are absl::Mutex)
// records lock-order edges in one global graph on every Lock and
// registers and unregisters itself there on creation and destruction:
// 126 ns per lock pair against 15 ns without, and ~4% of the
// coordinator's CPU serving Gets (perf; docs/benchmarks.md). A cycle it
// could find would abort the process, which is not what a server wants
// either. Call before any absl::Mutex is used.
void TurnOffMutexDeadlockDetection();

}  // namespace foundry
