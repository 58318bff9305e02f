// CPU seconds (user + system) of this whole process, every thread included:
// what the bench tools divide by the work they did.
#pragma once

#include <sys/resource.h>

namespace foundry::bench {

inline double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace foundry::bench
