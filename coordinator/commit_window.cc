#include "coordinator/commit_window.h"

namespace foundry::coordinator {

bool CommitWindow::Offer(CheckedJob job) {
  if (Holds(job.seq)) return false;
  const uint64_t seq = job.seq;
  ready_.emplace(seq, std::move(job));
  return true;
}

std::optional<CheckedJob> CommitWindow::PopNext() {
  auto it = ready_.find(next_seq_);
  if (it == ready_.end()) return std::nullopt;
  CheckedJob job = std::move(it->second);
  ready_.erase(it);
  ++next_seq_;
  return job;
}

}  // namespace foundry::coordinator
