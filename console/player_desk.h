// PlayerDesk: one console session's player (docs/players.md, "In the
// console"): the name plays are recorded for, the puzzles the store served
// to it in this session (rounds), and the plays made (history).
//
// A round is what makes a play rated: the console records a player's play
// only for a puzzle it was served by NextPuzzle or PuzzleOfTheDay in this
// session, never for one opened by id (no cherry-picking a puzzle whose
// solution was looked at), and each round has its own play_id, so a double
// click or a retry counts once whatever the browser does.
//
// Bounded: at most kMaxRounds rounds and kMaxHistory plays per session, the
// oldest going first (about 40 KB at most).
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace foundry::console {

// One recorded play, as the history shows it.
struct PlayEntry {
  std::string puzzle_id, family, player;
  std::string source;  // "next" or "daily"
  double offset = 0;
  bool solved = false;
  bool rated = false;  // false: the player had played this puzzle before
  double rating_before = 0, rating_after = 0, deviation = 0;
  uint64_t plays = 0, solves = 0;  // the player's figures in the family after the play
  double puzzle_rating = 0, puzzle_rating_change = 0;
  double seconds = 0;
  int64_t t_ms = 0;
};

// A puzzle served to the session's player.
struct Round {
  std::string puzzle_id, family, player;
  std::string source;  // "next" or "daily"
  std::string date;    // the puzzle of the day's date (daily only)
  double offset = 0;
  std::string play_id;  // "console-" and 128 random bits
  int64_t served_ms = 0;
  // Set once played; the first recorded result is kept.
  std::optional<PlayEntry> result;
  std::string answer;    // what the player typed (played only)
  std::string solution;  // the right answer, shown after a wrong one
};

class PlayerDesk {
 public:
  static constexpr size_t kMaxRounds = 32;
  static constexpr size_t kMaxHistory = 100;

  std::string player() const;
  void SetPlayer(std::string name);

  // The newest round of `puzzle_id` for `player`, or opens `fresh` (its
  // play_id made here): opening the same puzzle twice (a double click on
  // "Play it") gives the same round, so it is played once.
  Round Open(Round fresh);
  // The newest round of this puzzle, or nothing.
  std::optional<Round> Find(const std::string& puzzle_id) const;
  // True while `puzzle_id` is a round not yet played: its solution is not
  // shown to this session until it is.
  bool Unplayed(const std::string& puzzle_id) const;
  // Records the round's result and adds it to the history, unless the round
  // has one already (a concurrent request won): then that one is kept. The
  // round as it is now; nothing when it has gone (pushed out by newer ones).
  std::optional<Round> Finish(const std::string& puzzle_id, const std::string& play_id,
                              const PlayEntry& result, std::string answer, std::string solution);

  std::vector<PlayEntry> History() const;  // newest first
  std::vector<Round> OpenRounds() const;   // unplayed, newest first

 private:
  mutable std::mutex mu_;
  std::string player_;
  std::deque<Round> rounds_;  // oldest first
  std::deque<PlayEntry> history_;
};

// Longest player name: the store's limit on a player_id.
inline constexpr size_t kMaxPlayerNameBytes = 128;

// The player name of a request body's `name`, trimmed of surrounding
// spaces; InvalidArgument naming the problem when it is not a string, empty,
// longer than kMaxPlayerNameBytes or holds a control character.
Result<std::string> PlayerNameFrom(const nlohmann::json& body);

// The `offset` of a request body: a number (or a numeric string) in
// -1000..1000, the store's range; 0 when absent.
Result<double> OffsetFrom(const nlohmann::json& body);

// The UTC day of `unix_ms` as the puzzle of the day names it: "YYYY-MM-DD".
std::string UtcDate(int64_t unix_ms);

// The API's JSON shapes (docs/console-api.md).
nlohmann::json PlayEntryJson(const PlayEntry& e);
nlohmann::json RoundJson(const Round& r);

}  // namespace foundry::console
