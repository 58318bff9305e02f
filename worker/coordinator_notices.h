// CoordinatorNotices: what a worker says about its coordinator on stderr,
// once for the whole process however many of its lease loops notice: one
// "unreachable" line when the coordinator is lost, one "reachable again"
// when a loop gets through, and one line when the coordinator refuses the
// worker for good.
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
  // A loop that had called Down got through. Prints if the coordinator was
  // told unreachable.
  void Up();
  // The coordinator refused a loop for good. Prints `why` the first time.
  void Refused(std::string_view why);

 private:
  std::mutex mu_;
  bool down_ = false;
  bool refused_ = false;
};

}  // namespace foundry::worker
