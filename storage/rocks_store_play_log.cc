// RocksStore's record of plays (docs/players.md): one PlayRecord per play
// with a player under "play\0" player_id "\0" seq, each puzzle's best
// scored answer under "best\0" id. Keys in player_keys.h; every write here is
// added to the play's one WriteBatch (rocks_store_players.cc).
#include <memory>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "storage/player_keys.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::BestSolution;
using foundry::v1::PlayRecord;
using foundry::v1::RecordPlayResponse;
namespace pk = player_keys;

namespace {

void FillScore(const PlayScore& s, foundry::v1::AnswerScore& out) {
  out.set_score(s.score);
  out.set_target_score(s.target);
  out.set_greedy_score(s.greedy);
  out.set_best_score(s.best);
}

// Reads and parses `key` of `db` at `ro`: nullopt when absent.
template <typename Message>
Result<std::optional<Message>> ReadMessage(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf,
                                           const rocksdb::ReadOptions& ro, const std::string& key,
                                           const std::string& dir) {
  std::string value;
  rocksdb::Status s = db.Get(ro, cf, ToSlice(key), &value);
  if (s.IsNotFound()) return std::optional<Message>();
  if (!s.ok()) return FromRocks(s, dir, "cannot read a play record");
  Message m;
  if (!m.ParseFromString(value)) {
    return Status::DataLoss("store at " + dir + ": an unreadable record under key " +
                            rocksdb::Slice(key).ToString(/*hex=*/true));
  }
  return std::optional<Message>(std::move(m));
}

}  // namespace

Result<uint64_t> RocksStore::NextPlaySeqLocked() {
  if (!play_seq_loaded_) {
    std::string value;
    Result<bool> known = GetMeta(pk::PlaySeqKey(), &value);
    if (!known.ok()) return known.status();
    if (*known) {
      auto seq = pk::DecodeSeq(value);
      if (!seq) return Status::DataLoss("store at " + dir_ + ": the play counter has a wrong size");
      last_play_seq_ = *seq;
    }
    play_seq_loaded_ = true;
  }
  return last_play_seq_ + 1;
}

Status RocksStore::KeepBestLocked(const PlayerPlay& play, uint64_t seq, int64_t now_ms,
                                  rocksdb::WriteBatch& wb, RecordPlayResponse& resp) {
  FillScore(*play.score, *resp.mutable_answer_score());
  const std::string key = pk::BestKey(play.puzzle_id);
  auto before = ReadMessage<BestSolution>(*db_, cf(kDefault), rocksdb::ReadOptions(), key, dir_);
  if (!before.ok()) return before.status();
  // The highest score; of equal ones, the first recorded keeps it.
  if (*before && !(play.score->score > (*before)->score().score())) {
    *resp.mutable_best_solution() = std::move(**before);
    return Status::Ok();
  }
  BestSolution best;
  best.set_player_id(play.player_id);
  best.set_answer(play.answer);
  FillScore(*play.score, *best.mutable_score());
  best.set_recorded_unix_ms(now_ms);
  best.set_play_id(play.play_id);
  best.set_play_seq(seq);
  std::string bytes;
  if (!SerializeReadable(best, &bytes)) {
    return Status::InvalidArgument("the answer and the player id must be valid UTF-8");
  }
  FOUNDRY_RETURN_IF_ERROR(FromRocks(wb.Put(cf(kDefault), key, bytes), dir_,
                                    "cannot prepare the best solution of " + play.puzzle_id));
  resp.set_new_best(true);
  *resp.mutable_best_solution() = std::move(best);
  return Status::Ok();
}

Status RocksStore::AddPlayRecordLocked(const PlayerPlay& play, std::string_view family,
                                       uint64_t seq, int64_t now_ms, const RecordPlayResponse& resp,
                                       rocksdb::WriteBatch& wb) {
  PlayRecord r;
  r.set_seq(seq);
  r.set_puzzle_id(play.puzzle_id);
  r.set_family(std::string(family));
  r.set_player_id(play.player_id);
  r.set_solved(resp.solved());
  r.set_judged(resp.judged());
  r.set_seconds(play.seconds);
  if (play.judged) r.set_answer(play.answer);
  r.set_play_id(play.play_id);
  r.set_recorded_unix_ms(now_ms);
  r.set_rated(resp.rated());
  r.set_opened_by_id(resp.opened_by_id());
  if (play.judged) {
    r.set_player_rating(resp.player().rating());
    r.set_player_rating_change(resp.player_rating_change());
    r.set_puzzle_rating(resp.puzzle_rating());
    r.set_puzzle_rating_change(resp.puzzle_rating_change());
  }
  if (resp.has_answer_score()) *r.mutable_answer_score() = resp.answer_score();
  r.set_new_best(resp.new_best());
  std::string bytes;
  if (!SerializeReadable(r, &bytes)) {
    return Status::InvalidArgument("the answer and the player id must be valid UTF-8");
  }
  rocksdb::Status s = wb.Put(cf(kDefault), pk::PlayKey(play.player_id, seq), bytes);
  if (s.ok()) s = wb.Put(cf(kDefault), pk::PlaySeqKey(), pk::EncodeSeq(seq));
  return FromRocks(s, dir_, "cannot prepare the record of a play of " + play.puzzle_id);
}

Status RocksStore::ScanPlays(std::string_view player_id, std::string_view family, uint64_t limit,
                             const std::function<bool(const PlayRecord&)>& visit) {
  if (player_id.find('\0') != std::string_view::npos) {
    return Status::InvalidArgument("a player id must not contain a NUL byte");
  }
  const std::string prefix = player_id.empty() ? pk::PlayAllPrefix() : pk::PlayPrefix(player_id);
  rocksdb::ManagedSnapshot snapshot(db_.get());
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot.snapshot();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(kDefault)));
  // The best solution of the puzzle last looked up (a player's plays of one
  // puzzle are often together).
  std::string best_of;
  uint64_t best_seq = 0;
  uint64_t visited = 0;
  for (it->Seek(ToSlice(prefix)); it->Valid() && StartsWith(it->key(), prefix); it->Next()) {
    PlayRecord r;
    if (!r.ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) {
      return Status::DataLoss("store at " + dir_ + ": an unreadable play record (" +
                              it->key().ToString(/*hex=*/true) + ")");
    }
    if (!family.empty() && r.family() != family) continue;
    if (r.has_answer_score()) {
      if (best_of != r.puzzle_id()) {
        auto best =
            ReadMessage<BestSolution>(*db_, cf(kDefault), ro, pk::BestKey(r.puzzle_id()), dir_);
        if (!best.ok()) return best.status();
        best_of = r.puzzle_id();
        best_seq = *best ? (*best)->play_seq() : 0;
      }
      r.set_best_now(best_seq == r.seq());
    }
    if (!visit(r)) return Status::Ok();
    if (limit != 0 && ++visited == limit) return Status::Ok();
  }
  return FromRocks(it->status(), dir_, "cannot walk the play records");
}

Result<std::optional<BestSolution>> RocksStore::GetBestSolution(std::string_view id) {
  return ReadMessage<BestSolution>(*db_, cf(kDefault), rocksdb::ReadOptions(), pk::BestKey(id),
                                   dir_);
}

}  // namespace foundry::storage
