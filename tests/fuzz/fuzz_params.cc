// libFuzzer target: parameter parsing. The input is "key=value" lines, given
// to every family's MakeParams, and also read as a JSON object. Nothing may
// crash; an accepted Params must round-trip through its JSON.
#include <cstdint>
#include <map>
#include <string>

#include "puzzles/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> raw;
  size_t start = 0;
  while (start <= input.size()) {
    size_t end = input.find('\n', start);
    if (end == std::string::npos) end = input.size();
    const std::string line = input.substr(start, end - start);
    const size_t eq = line.find('=');
    if (eq != std::string::npos) raw[line.substr(0, eq)] = line.substr(eq + 1);
    start = end + 1;
  }
  const auto json = nlohmann::json::parse(input, nullptr, false);
  for (const auto* family : foundry::puzzles::AllFamilies()) {
    auto p = family->MakeParams(raw);
    if (p.ok()) {
      auto again = family->MakeParams(p->json());
      if (!again.ok() || again->json() != p->json()) __builtin_trap();
    }
    if (!json.is_discarded()) (void)family->MakeParams(json);
  }
  return 0;
}
