#include "worker/coordinator_notices.h"

#include <cstdio>

#include <fmt/format.h>

namespace foundry::worker {

void CoordinatorNotices::Down(std::string_view why) {
  std::lock_guard lock(mu_);
  if (down_) return;
  down_ = true;
  fmt::print(stderr, "worker: coordinator unreachable ({}); retrying with backoff\n", why);
}

void CoordinatorNotices::Up() {
  std::lock_guard lock(mu_);
  if (!down_) return;
  down_ = false;
  fmt::print(stderr, "worker: coordinator reachable again\n");
}

void CoordinatorNotices::Refused(std::string_view why) {
  std::lock_guard lock(mu_);
  if (refused_) return;
  refused_ = true;
  fmt::print(stderr, "worker: {}\n", why);
}

}  // namespace foundry::worker
