// CoordinatorNotices: what a worker says about its coordinator on stderr,
// once for the whole process however many of its lease loops notice: one
// "unreachable" (or "turned away for now") line when the coordinator is lost,
// one "reachable again" when a loop gets through, and one line when the
// coordinator refuses the worker for good.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <mutex>
#include <string_view>

namespace foundry::worker {

class CoordinatorNotices {
 public:
  // A loop's request could not reach the coordinator. Prints `why` unless
  // the coordinator is already told unreachable.
  void Down(std::string_view why);
  // The coordinator turned a loop away for now (ABORTED: the worker id is
  // held by another process). Prints `why` unless already said.
  void Held(std::string_view why);
  // A loop that had called Down or Held got through. Prints if the
  // coordinator was told unreachable, or the worker turned away.
  void Up();
  // The coordinator refused a loop for good. Prints `why` the first time.
  void Refused(std::string_view why);

 private:
  std::mutex mu_;
  enum class Trouble { kNone, kUnreachable, kTurnedAway };
  Trouble trouble_ = Trouble::kNone;
  bool refused_ = false;
};

}  // namespace foundry::worker
