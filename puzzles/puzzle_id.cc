#include "puzzles/puzzle_id.h"

#include <string>

#include <fmt/format.h>
#include <xxhash.h>

#include "common/quote.h"

namespace foundry::puzzles {

std::string PuzzleId(const Family& family, std::string_view canonical) {
  std::string input;
  input.reserve(family.name().size() + 1 + canonical.size());
  input.append(family.name());
  input.push_back('\0');
  input.append(canonical);
  const XXH128_hash_t h = XXH3_128bits(input.data(), input.size());
  return fmt::format("{}-{:016x}{:016x}", family.id_prefix(), h.high64, h.low64);
}

bool LooksLikePuzzleId(std::string_view id) {
  const auto dash = id.find('-');
  if (dash == std::string_view::npos || dash == 0 || id.size() != dash + 1 + 32) return false;
  for (char c : id.substr(dash + 1)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

Status CheckPuzzleId(std::string_view id) {
  if (LooksLikePuzzleId(id)) return Status::Ok();
  return Status::InvalidArgument(fmt::format(
      "'{}' is not a puzzle id (expected a prefix, '-' and 32 hex digits)", QuoteInput(id)));
}

}  // namespace foundry::puzzles
