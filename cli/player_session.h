// `foundry play --player NAME --family F`: one rated round for a player. The
// store chooses the puzzle (NextPuzzle, near the player's rating + offset),
// the player types an answer, the store judges and rates it (RecordPlay
// with the answer), and the rating change is shown (docs/players.md).
#pragma once

#include <string>

#include "cli/puzzle_source.h"

namespace foundry::cli {

struct PlayerSessionFlags {
  SourceFlags source;
  std::string player;
  std::string family;
  double offset = 0;
};

// Runs the round at the terminal. Exit code: 0 solved, 2 not solved, 1 on
// an error (printed) or when no answer was given (nothing recorded).
int PlayAsPlayer(const PlayerSessionFlags& f);

}  // namespace foundry::cli
