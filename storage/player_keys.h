// Key layouts of players' data (docs/players.md, docs/store.md). All in the
// `default` column family under prefixes of their own, so no column family
// and no schema version were added: a store of this schema without these
// keys simply has no players yet. Private to storage/.
//
// key                                               value
// ------------------------------------------------  -------------------------------------
// "player\0" family \0 player_id                    PlayerFigures: rating, deviation,
//                                                   volatility (3 x f64 LE), plays,
//                                                   solves (2 x u64 LE)
// "prating\0" puzzle_id                             PuzzleRating: rating, deviation,
//                                                   volatility (3 x f64 LE), judged
//                                                   solved, judged failed (2 x u64 LE)
// "by_rating\0" family \0 ScoreKey(rating) id       empty: the index NextPuzzle walks
// "served\0" player_id \0 puzzle_id                 empty: NextPuzzle gave it
// "attempt\0" player_id \0 puzzle_id                empty: the player played it
// "play_id\0" play_id                               fingerprint length (u32 LE),
//                                                   fingerprint, RecordPlayResponse
// "grade_map\0" family                              FittedGradeMapping: center,
//                                                   per_score (2 x f64 LE), puzzles
//                                                   (u64 LE), fitted_unix_ms (i64 LE)
// "daily\0" family \0 date                          puzzle id: the puzzle of the day
// "play\0" player_id \0 seq (8 bytes BE)             PlayRecord: one play with a player
// "play_seq"                                        the last seq given (u64 LE)
// "best\0" puzzle_id                                BestSolution: the best scored answer
//
// A play's seq is one counter for the whole store, so a player's plays sort
// in the order they were recorded under the player's prefix.
// Every puzzle with a "prating" record has exactly one by_rating entry, at
// the record's rating (both written in one WriteBatch). Puzzles without one
// sit at their initial rating, a monotone function of the generator score,
// so NextPuzzle finds them through by_score instead.
//
// player_id and play_id never contain \0 (refused), nor do family or
// puzzle ids, so the separators are unambiguous.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/player_store.h"

namespace foundry::storage::player_keys {

// A puzzle's rating record.
struct PuzzleRating {
  RatingState rating;
  uint64_t judged_solved = 0;
  uint64_t judged_failed = 0;
};

std::string PlayerKey(std::string_view family, std::string_view player_id);
std::string PuzzleRatingKey(std::string_view puzzle_id);
// "by_rating\0 family \0": every index entry of the family.
std::string ByRatingPrefix(std::string_view family);
std::string ByRatingKey(std::string_view family, double rating, std::string_view puzzle_id);
// The rating and id of a by_rating key under `prefix`; nullopt if malformed.
std::optional<std::pair<double, std::string_view>> ParseByRatingKey(std::string_view prefix,
                                                                    std::string_view key);
std::string ServedKey(std::string_view player_id, std::string_view puzzle_id);
std::string AttemptKey(std::string_view player_id, std::string_view puzzle_id);
std::string PlayIdKey(std::string_view play_id);
std::string GradeMapKey(std::string_view family);
std::string DailyKey(std::string_view family, std::string_view date);
// "play\0" player_id "\0" seq: one play record.
std::string PlayKey(std::string_view player_id, uint64_t seq);
// "play\0" player_id "\0": every play of one player.
std::string PlayPrefix(std::string_view player_id);
// "play\0": every play record.
std::string PlayAllPrefix();
std::string PlaySeqKey();
std::string BestKey(std::string_view puzzle_id);
// The play_seq record's value (u64 LE), and back; nullopt if not 8 bytes.
std::string EncodeSeq(uint64_t seq);
std::optional<uint64_t> DecodeSeq(std::string_view v);

// "by_rating\0": every index entry of every family.
std::string ByRatingAllPrefix();
// A by_rating key of any family.
struct ByRatingParts {
  std::string_view family;
  double rating = 0;
  std::string_view id;
};
// The parts of a by_rating key (views into `key`); nullopt if malformed.
std::optional<ByRatingParts> ParseAnyByRatingKey(std::string_view key);

std::string EncodePlayer(const PlayerFigures& p);
std::optional<PlayerFigures> DecodePlayer(std::string_view v);
std::string EncodePuzzleRating(const PuzzleRating& r);
std::optional<PuzzleRating> DecodePuzzleRating(std::string_view v);

std::string EncodeGradeMapping(const FittedGradeMapping& m);
std::optional<FittedGradeMapping> DecodeGradeMapping(std::string_view v);

// The play_id record: what identifies the play, and the result returned.
std::string EncodePlayIdRecord(std::string_view fingerprint, std::string_view response);
std::optional<std::pair<std::string_view, std::string_view>> DecodePlayIdRecord(std::string_view v);

}  // namespace foundry::storage::player_keys
