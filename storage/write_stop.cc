#include "storage/write_stop.h"

namespace foundry::storage {

void WriteStop::OnBackgroundError(rocksdb::BackgroundErrorReason /*reason*/,
                                  rocksdb::Status* error) {
  if (error == nullptr || !error->IsNoSpace()) return;
  {
    std::lock_guard lock(mu_);
    reason_ = error->ToString();
  }
  stopped_.store(true, std::memory_order_release);
}

void WriteStop::OnErrorRecoveryCompleted(rocksdb::Status old_error) {
  old_error.PermitUncheckedError();
  Clear();
}

void WriteStop::OnErrorRecoveryEnd(const rocksdb::BackgroundErrorRecoveryInfo& info) {
  if (info.new_bg_error.ok()) Clear();
}

std::string WriteStop::reason() const {
  std::lock_guard lock(mu_);
  return reason_;
}

void WriteStop::Clear() {
  std::lock_guard lock(mu_);
  reason_.clear();
  stopped_.store(false, std::memory_order_release);
}

}  // namespace foundry::storage
