// The export envelope (docs/reference.md, "The export format"): one stored puzzle as one
// JSON object, and back.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "foundry/v1/puzzle.pb.h"

namespace foundry::cli {

// {"id","family","campaign","seed","index","params","difficulty","puzzle",
//  "solution","text"}; "solution" is omitted when the record has none and
// "text" when the family is not in this build. Puzzles read from a store also
// carry "plays" {solved, failed, mean_solve_seconds} and "observed" {score,
// solve_rate, plays, level}.
nlohmann::json PuzzleToJson(const foundry::v1::Puzzle& p);

// CSV (RFC 4180) of the same records: one header line, then one row per
// puzzle; JSON fields are embedded as quoted JSON text.
std::string PuzzleCsvHeader();
std::string PuzzleToCsvRow(const foundry::v1::Puzzle& p);

// The inverse of PuzzleToJson for one line of a JSON Lines file.
// InvalidArgument naming the missing or malformed field.
Result<foundry::v1::Puzzle> PuzzleFromJsonLine(const std::string& line);

// The family's plain-text rendering of `p`, headed by its id and difficulty.
std::string PuzzleToText(const foundry::v1::Puzzle& p);

}  // namespace foundry::cli
