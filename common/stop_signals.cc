#include "common/stop_signals.h"

#include <chrono>
#include <csignal>
#include <thread>

namespace foundry {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<bool> g_drain{false};

extern "C" void OnStop(int) { g_stop = true; }
extern "C" void OnInterruptDrains(int) {
  if (g_drain.exchange(true)) g_stop = true;
}

}  // namespace

void InstallStopSignals(InterruptMeans interrupt) {
  std::signal(SIGTERM, OnStop);
  std::signal(SIGINT, interrupt == InterruptMeans::kDrain ? OnInterruptDrains : OnStop);
}

std::atomic<bool>& StopFlag() { return g_stop; }

std::atomic<bool>& DrainFlag() { return g_drain; }

void WaitForStop() {
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace foundry
