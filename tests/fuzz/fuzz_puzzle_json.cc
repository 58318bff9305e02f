// libFuzzer target: the JSON Lines import/export path. A line is decoded as
// an export record; a record that decodes is verified by its family, and a
// puzzle that verifies is rendered, hashed and encoded again. Nothing may
// crash, and what verifies once must verify after the round trip.
#include <cstdint>
#include <string>

#include "cli/puzzle_json.h"
#include "puzzles/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string line(reinterpret_cast<const char*>(data), size);
  auto record = foundry::cli::PuzzleFromJsonLine(line);
  if (!record.ok()) return 0;
  auto family = foundry::puzzles::FindFamily(record->family());
  if (!family.ok()) return 0;
  const auto puzzle = nlohmann::json::parse(record->puzzle_json(), nullptr, false);
  const auto solution = nlohmann::json::parse(record->solution_json(), nullptr, false);
  if (puzzle.is_discarded() || solution.is_discarded()) return 0;
  if (!(*family)->Verify(puzzle, solution).ok()) return 0;
  (void)(*family)->CanonicalBytes(puzzle);
  (void)(*family)->RenderText(puzzle);
  const std::string encoded = foundry::cli::PuzzleToJson(*record).dump();
  auto again = foundry::cli::PuzzleFromJsonLine(encoded);
  if (!again.ok()) __builtin_trap();
  if (!(*family)
           ->Verify(nlohmann::json::parse(again->puzzle_json()),
                    nlohmann::json::parse(again->solution_json()))
           .ok()) {
    __builtin_trap();
  }
  return 0;
}
