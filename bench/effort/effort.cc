#include "bench/effort/effort.h"

#include <vector>

namespace foundry::bench {
namespace {

std::vector<EffortMeasure>& Measures() {
  static std::vector<EffortMeasure> measures;  // filled before main()
  return measures;
}

}  // namespace

bool RegisterEffort(const EffortMeasure& measure) {
  Measures().push_back(measure);
  return true;
}

const EffortMeasure* FindEffort(std::string_view family) {
  for (const auto& m : Measures()) {
    if (m.family == family) return &m;
  }
  return nullptr;
}

}  // namespace foundry::bench
