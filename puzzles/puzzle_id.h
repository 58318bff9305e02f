// Puzzle ids: "<prefix>-" and 32 hex digits of XXH3-128 over the family name,
// a zero byte and the puzzle's canonical bytes. Same puzzle, same id, forever:
// never change the hashed layout.
#pragma once

#include <string>
#include <string_view>

#include "puzzles/family.h"

namespace foundry::puzzles {

// The id of a puzzle whose canonical bytes are `canonical`.
std::string PuzzleId(const Family& family, std::string_view canonical);

// True when `id` has the shape of a puzzle id ("xx-" then 32 lowercase hex).
bool LooksLikePuzzleId(std::string_view id);

// Ok when `id` has that shape; else InvalidArgument quoting at most its
// first 64 bytes and its length (it comes from a request, a URL or a flag).
Status CheckPuzzleId(std::string_view id);

}  // namespace foundry::puzzles
