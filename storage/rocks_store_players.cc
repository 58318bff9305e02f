// RocksStore's players: judged and idempotent plays, ratings of players and
// puzzles (docs/players.md; the next puzzle for a player is in
// rocks_store_next_puzzle.cc). Keys in player_keys.h, all in the default
// column family.
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "storage/keys.h"
#include "storage/observed_difficulty.h"
#include "storage/player_keys.h"
#include "storage/point_reads.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::Puzzle;
using foundry::v1::RecordPlayResponse;
namespace pk = player_keys;

namespace {

// What a play_id stands for: the same play_id must come with the same
// puzzle, player and answer (or claim) to be the same play.
std::string Fingerprint(const PlayerPlay& play) {
  std::string fp = play.puzzle_id;
  fp.push_back('\0');
  fp.append(play.player_id);
  fp.push_back('\0');
  if (play.judged) {
    fp.append("a").append(play.answer);
  } else {
    fp.append(play.solved ? "c1" : "c0");
  }
  return fp;
}

void FillPlayer(std::string_view player_id, std::string_view family, const PlayerFigures& f,
                foundry::v1::Player& out) {
  out.set_player_id(std::string(player_id));
  out.set_family(std::string(family));
  out.set_rating(f.rating.rating);
  out.set_deviation(f.rating.deviation);
  out.set_volatility(f.rating.volatility);
  out.set_plays(f.plays);
  out.set_solves(f.solves);
}

}  // namespace

Result<bool> RocksStore::GetMeta(const std::string& key, std::string* value) {
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), cf(kDefault), ToSlice(key), value);
  if (s.IsNotFound()) return false;
  if (!s.ok()) return FromRocks(s, dir_, "cannot read player data");
  return true;
}

Result<RecordPlayResponse> RocksStore::RecordPlayerPlay(const PlayerPlay& play,
                                                        const RatingModel& model) {
  if (!(play.seconds >= 0 && play.seconds <= 86400)) {
    return Status::InvalidArgument("seconds must be between 0 and 86400 (one day)");
  }
  const std::string fingerprint = Fingerprint(play);
  std::lock_guard<std::mutex> lock(players_mu_);
  // Every value the play is decided on, read in one MultiGet. The keys that
  // name the family (the player's, the days' puzzles) need the record: they
  // join the batch when the caller hands it over (the coordinator does,
  // having judged the answer), else they are read once the record is.
  const bool given = play.record && play.record->id() == play.puzzle_id;
  const bool player = !play.player_id.empty();
  PointReads reads;
  constexpr size_t kNone = SIZE_MAX;
  const size_t play_id_slot =
      play.play_id.empty() ? kNone : reads.Add(cf(kDefault), pk::PlayIdKey(play.play_id));
  const size_t plays_slot = reads.Add(cf(kPlays), play.puzzle_id);
  const size_t attempt_slot =
      player ? reads.Add(cf(kDefault), pk::AttemptKey(play.player_id, play.puzzle_id)) : kNone;
  const bool judged_player = play.judged && player;
  const size_t served_slot =
      judged_player ? reads.Add(cf(kDefault), pk::ServedKey(play.player_id, play.puzzle_id))
                    : kNone;
  const size_t rating_slot =
      play.judged ? reads.Add(cf(kDefault), pk::PuzzleRatingKey(play.puzzle_id)) : kNone;
  const auto add_family_keys = [&](PointReads& r, std::string_view family) {
    std::vector<size_t> slots;  // the player's, then one per daily day
    if (!judged_player) return slots;
    slots.push_back(r.Add(cf(kDefault), pk::PlayerKey(family, play.player_id)));
    for (const std::string& day : play.daily_days) {
      slots.push_back(r.Add(cf(kDefault), pk::DailyKey(family, day)));
    }
    return slots;
  };
  std::vector<size_t> family_slots;
  if (given) family_slots = add_family_keys(reads, play.record->family());
  FOUNDRY_RETURN_IF_ERROR(reads.Run(*db_, dir_, "cannot read player data"));

  if (play_id_slot != kNone && reads.Found(play_id_slot)) {
    auto record = pk::DecodePlayIdRecord(reads.Value(play_id_slot));
    RecordPlayResponse first;
    if (!record ||
        !first.ParseFromArray(record->second.data(), static_cast<int>(record->second.size()))) {
      return Status::DataLoss("store at " + dir_ + ": the record of play_id " + play.play_id +
                              " is unreadable");
    }
    if (record->first != fingerprint) {
      return Status::AlreadyExists("play_id '" + play.play_id +
                                   "' was already recorded for another puzzle, player or answer; "
                                   "a play_id names exactly one play");
    }
    first.set_replayed(true);
    return first;
  }
  std::optional<Puzzle> read;  // the record, when it was not handed over
  if (!given) {
    Result<Puzzle> record = ReadRecord(play.puzzle_id);
    if (!record.ok()) return record.status();
    read = std::move(*record);
  }
  const Puzzle& puzzle = given ? *play.record : *read;
  const std::string& family = puzzle.family();
  PointReads family_reads;  // only when the record was not handed over
  if (!given) {
    family_slots = add_family_keys(family_reads, family);
    FOUNDRY_RETURN_IF_ERROR(family_reads.Run(*db_, dir_, "cannot read player data"));
  }
  const PointReads& by_family = given ? reads : family_reads;
  PlayCounts counts;
  if (reads.Found(plays_slot)) {
    std::optional<PlayCounts> decoded = DecodePlayCounts(reads.Value(plays_slot));
    if (!decoded) {
      return Status::DataLoss("store at " + dir_ + ": play counts of " + play.puzzle_id +
                              " have a wrong size");
    }
    counts = *decoded;
  }

  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  uint64_t seq = 0;  // the play's record, when it has a player
  if (!play.player_id.empty()) {
    Result<uint64_t> next = NextPlaySeqLocked();
    if (!next.ok()) return next.status();
    seq = *next;
  }

  rocksdb::WriteBatch wb;
  PlayCounts delta;
  (play.solved ? delta.solved : delta.failed) = 1;
  if (play.solved) delta.solve_ms = static_cast<uint64_t>(std::llround(play.seconds * 1000));
  rocksdb::Status s = wb.Merge(cf(kPlays), ToSlice(play.puzzle_id), EncodePlayCounts(delta));

  RecordPlayResponse resp;
  resp.set_solved(play.solved);
  resp.set_judged(play.judged);
  bool first_attempt = false;
  if (player) {
    first_attempt = !reads.Found(attempt_slot);
    if (first_attempt && s.ok()) s = wb.Put(cf(kDefault), reads.Key(attempt_slot), "");
  }
  // Only a puzzle the store chose for the player is rated: one opened by id
  // could be picked to rate a player up (docs/players.md).
  bool may_rate = first_attempt;
  if (judged_player) {
    // Served by NextPuzzle, or the puzzle of one of the play's days.
    bool served = reads.Found(served_slot);
    for (size_t i = 1; i < family_slots.size() && !served; ++i) {
      served =
          by_family.Found(family_slots[i]) && by_family.Value(family_slots[i]) == play.puzzle_id;
    }
    resp.set_opened_by_id(!served);
    may_rate = may_rate && (served || model.rate_unserved);
  }
  if (play.judged) {
    pk::PuzzleRating rating;
    const bool rated_before = reads.Found(rating_slot);
    if (rated_before) {
      auto decoded = pk::DecodePuzzleRating(reads.Value(rating_slot));
      if (!decoded) {
        return Status::DataLoss("store at " + dir_ + ": the rating of puzzle " + play.puzzle_id +
                                " has a wrong size");
      }
      rating = *decoded;
    } else {
      Result<GradeMapping> mapping = MappingOfLocked(family, model);
      if (!mapping.ok()) return mapping.status();
      rating.rating = model.new_player;
      rating.rating.rating = mapping->Rating(puzzle.difficulty().score());
      rating.rating.deviation = model.new_puzzle_deviation;
    }
    const RatingState puzzle_before = rating.rating;
    (play.solved ? rating.judged_solved : rating.judged_failed) += 1;
    if (player) {
      const std::string player_key = pk::PlayerKey(family, play.player_id);
      PlayerFigures figures{model.new_player, 0, 0};
      if (by_family.Found(family_slots[0])) {
        auto decoded = pk::DecodePlayer(by_family.Value(family_slots[0]));
        if (!decoded) {
          return Status::DataLoss("store at " + dir_ + ": the record of player " + play.player_id +
                                  " has a wrong size");
        }
        figures = *decoded;
      }
      figures.plays += 1;
      figures.solves += play.solved ? 1 : 0;
      const double player_before = figures.rating.rating;
      if (may_rate && model.rate) {
        auto [player_after, puzzle_after] = model.rate(figures.rating, rating.rating, play.solved);
        figures.rating = player_after;
        rating.rating = puzzle_after;
        resp.set_rated(true);
      }
      resp.set_player_rating_change(figures.rating.rating - player_before);
      FillPlayer(play.player_id, family, figures, *resp.mutable_player());
      if (s.ok()) s = wb.Put(cf(kDefault), player_key, pk::EncodePlayer(figures));
    }
    // The index entry moves with the rating: old key out, new key in, in
    // the same batch as the record, so the index never disagrees with it.
    if (rated_before && s.ok()) {
      s = wb.Delete(cf(kDefault), pk::ByRatingKey(family, puzzle_before.rating, play.puzzle_id));
    }
    if (s.ok())
      s = wb.Put(cf(kDefault), pk::ByRatingKey(family, rating.rating.rating, play.puzzle_id), "");
    if (s.ok()) s = wb.Put(cf(kDefault), reads.Key(rating_slot), pk::EncodePuzzleRating(rating));
    resp.set_puzzle_rating(rating.rating.rating);
    resp.set_puzzle_rating_change(rating.rating.rating - puzzle_before.rating);
    resp.set_judged_plays(rating.judged_solved + rating.judged_failed);
  }
  if (play.judged && play.score && s.ok()) {
    FOUNDRY_RETURN_IF_ERROR(KeepBestLocked(play, seq, now_ms, wb, resp));
  }
  PlayCounts after = counts;
  after.solved += delta.solved;
  after.failed += delta.failed;
  after.solve_ms += delta.solve_ms;
  Puzzle fields;  // the record's play fields after this play
  SetPlayFields(puzzle.difficulty().score(), after, fields);
  resp.mutable_plays()->Swap(fields.mutable_plays());
  resp.mutable_observed()->Swap(fields.mutable_observed());
  if (!play.play_id.empty() && s.ok()) {
    std::string bytes;
    if (!resp.SerializeToString(&bytes)) return Status::Internal("cannot encode a play's result");
    s = wb.Put(cf(kDefault), pk::PlayIdKey(play.play_id),
               pk::EncodePlayIdRecord(fingerprint, bytes));
  }
  if (!s.ok()) return FromRocks(s, dir_, "cannot prepare the play of " + play.puzzle_id);
  if (seq != 0) FOUNDRY_RETURN_IF_ERROR(AddPlayRecordLocked(play, family, seq, now_ms, resp, wb));
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  FOUNDRY_RETURN_IF_ERROR(
      FromRocks(db_->Write(wo, &wb), dir_, "cannot record the play of " + play.puzzle_id));
  if (seq != 0) last_play_seq_ = seq;
  plays_recorded_.fetch_add(1, std::memory_order_relaxed);
  return resp;
}

Result<std::optional<PlayerFigures>> RocksStore::GetPlayer(std::string_view player_id,
                                                           std::string_view family) {
  std::string value;
  Result<bool> known = GetMeta(pk::PlayerKey(family, player_id), &value);
  if (!known.ok()) return known.status();
  if (!*known) return std::optional<PlayerFigures>();
  auto decoded = pk::DecodePlayer(value);
  if (!decoded) {
    return Status::DataLoss("store at " + dir_ + ": the record of player " +
                            std::string(player_id) + " has a wrong size");
  }
  return std::optional<PlayerFigures>(*decoded);
}

}  // namespace foundry::storage
