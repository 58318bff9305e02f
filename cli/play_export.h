// foundry export --plays: the players' results, one JSON line per recorded
// play with a player (docs/players.md, "Exporting plays").
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "foundry/v1/store.pb.h"

namespace foundry::cli {

struct PlayExportFlags {
  std::string db, coordinator;  // exactly one
  std::string family;           // "" for every family
  std::string player;           // "" for every player
  uint64_t limit = 0;           // 0: all
};

// One play as its JSON line: seq, id, family, player_id, solved, judged,
// seconds, recorded_unix_ms; play_id when it had one; for judged plays the
// answer, rated, opened_by_id and the ratings after the play and their
// changes; for scored answers "score" {score, target, greedy, best},
// new_best and best_now.
nlohmann::json PlayToJson(const foundry::v1::PlayRecord& r);

// Writes the plays `flags` select to stdout from the store directory or
// the coordinator (admin token). Returns the exit code (0, or 1 with the
// error on stderr).
int ExportPlays(const PlayExportFlags& flags);

}  // namespace foundry::cli
