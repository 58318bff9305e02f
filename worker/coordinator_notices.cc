#include "worker/coordinator_notices.h"

#include <cstdio>
#include <utility>

#include <fmt/format.h>

namespace foundry::worker {

void CoordinatorNotices::Down(std::string_view why) {
  std::lock_guard lock(mu_);
  if (trouble_ != Trouble::kNone) return;
  trouble_ = Trouble::kUnreachable;
  fmt::print(stderr, "worker: coordinator unreachable ({}); retrying with backoff\n", why);
}

void CoordinatorNotices::Held(std::string_view why) {
  std::lock_guard lock(mu_);
  if (trouble_ != Trouble::kNone) return;
  trouble_ = Trouble::kTurnedAway;
  fmt::print(stderr, "worker: the coordinator turns this worker away for now ({}); retrying\n",
             why);
}

void CoordinatorNotices::Up() {
  std::lock_guard lock(mu_);
  const Trouble was = std::exchange(trouble_, Trouble::kNone);
  if (was == Trouble::kUnreachable) fmt::print(stderr, "worker: coordinator reachable again\n");
  if (was == Trouble::kTurnedAway)
    fmt::print(stderr, "worker: the coordinator takes this worker\n");
}

void CoordinatorNotices::Refused(std::string_view why) {
  std::lock_guard lock(mu_);
  if (refused_) return;
  refused_ = true;
  fmt::print(stderr, "worker: {}\n", why);
}

}  // namespace foundry::worker
