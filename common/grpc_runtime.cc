#include "common/grpc_runtime.h"

#include <absl/synchronization/mutex.h>

namespace foundry {

void TurnOffMutexDeadlockDetection() {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
}

}  // namespace foundry
