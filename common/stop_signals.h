// StopSignals: SIGTERM and SIGINT as two process-wide flags that a
// program's threads poll (a signal handler may do nothing more).
//
// SIGTERM always means stop. SIGINT means stop too, unless the program asks
// for draining: then the first SIGINT raises the drain flag (finish what is
// in progress, take nothing new) and a second one stops.
#pragma once

#include <atomic>

namespace foundry {

enum class InterruptMeans { kStop, kDrain };

// Installs the handlers for SIGTERM and SIGINT. Call once, early in main.
void InstallStopSignals(InterruptMeans interrupt = InterruptMeans::kStop);

// Raised by SIGTERM (or SIGINT, see above); the program may raise it too.
std::atomic<bool>& StopFlag();
// Raised by a first SIGINT under InterruptMeans::kDrain; the program may
// raise it too (e.g. when its work has ended).
std::atomic<bool>& DrainFlag();

// Blocks until StopFlag() is raised, looking every 100 ms.
void WaitForStop();

}  // namespace foundry
