// RocksStore's grade mappings (docs/players.md, "The rating model"): the
// per-family grade -> rating mapping fitted from plays, and the walk over
// rated puzzles a fit reads. Keys in player_keys.h ("grade_map", "by_rating",
// "prating"), all in the default column family.
#include <cmath>
#include <memory>
#include <mutex>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "storage/player_keys.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

namespace pk = player_keys;

Result<std::optional<FittedGradeMapping>> RocksStore::GetGradeMapping(std::string_view family) {
  std::string value;
  Result<bool> fitted = GetMeta(pk::GradeMapKey(family), &value);
  if (!fitted.ok()) return fitted.status();
  if (!*fitted) return std::optional<FittedGradeMapping>();
  std::optional<FittedGradeMapping> decoded = pk::DecodeGradeMapping(value);
  if (!decoded) {
    return Status::DataLoss("store at " + dir_ + ": the grade mapping of family " +
                            std::string(family) + " has a wrong size");
  }
  return decoded;
}

Result<GradeMapping> RocksStore::MappingOfLocked(std::string_view family,
                                                 const RatingModel& model) {
  auto known = grade_maps_.find(family);
  if (known == grade_maps_.end()) {
    Result<std::optional<FittedGradeMapping>> read = GetGradeMapping(family);
    if (!read.ok()) return read.status();
    // Families come checked against the registry, but the store does not
    // know it: a bound keeps a caller's made-up names from growing this.
    constexpr size_t kMostFamiliesKept = 64;
    if (grade_maps_.size() >= kMostFamiliesKept) {
      return *read ? (*read)->mapping : model.grade;
    }
    known = grade_maps_.emplace(std::string(family), *read).first;
  }
  return known->second ? known->second->mapping : model.grade;
}

Status RocksStore::PutGradeMappings(const std::map<std::string, FittedGradeMapping>& mappings) {
  rocksdb::WriteBatch wb;
  for (const auto& [family, fitted] : mappings) {
    if (family.empty() || family.find('\0') != std::string::npos) {
      return Status::InvalidArgument("a grade mapping needs a family without NUL bytes");
    }
    const GradeMapping& m = fitted.mapping;
    if (!std::isfinite(m.center) || !std::isfinite(m.per_score) || m.per_score < 0) {
      return Status::InvalidArgument(
          "the grade mapping of family " + family +
          " must have a finite center and a finite per_score >= 0 (the initial rating must "
          "not fall as the generator score rises)");
    }
    rocksdb::Status s =
        wb.Put(cf(kDefault), pk::GradeMapKey(family), pk::EncodeGradeMapping(fitted));
    if (!s.ok()) return FromRocks(s, dir_, "cannot prepare the grade mappings");
  }
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  // Under the players' lock: a play or NextPuzzle reads one mapping from
  // its start to its write.
  std::lock_guard<std::mutex> lock(players_mu_);
  FOUNDRY_RETURN_IF_ERROR(FromRocks(db_->Write(wo, &wb), dir_, "cannot store the grade mappings"));
  for (const auto& [family, fitted] : mappings) grade_maps_.insert_or_assign(family, fitted);
  return Status::Ok();
}

Status RocksStore::ForEachRatedPuzzle(uint64_t min_judged_plays,
                                      const std::function<void(const RatedPuzzle&)>& visit) {
  const rocksdb::Snapshot* snapshot = db_->GetSnapshot();
  struct Release {
    rocksdb::DB* db;
    const rocksdb::Snapshot* s;
    ~Release() { db->ReleaseSnapshot(s); }
  } release{db_.get(), snapshot};
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot;
  const std::string prefix = pk::ByRatingAllPrefix();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(kDefault)));
  std::string value;
  for (it->Seek(ToSlice(prefix)); it->Valid() && StartsWith(it->key(), prefix); it->Next()) {
    std::optional<pk::ByRatingParts> parts = pk::ParseAnyByRatingKey(it->key().ToStringView());
    if (!parts) {
      return Status::DataLoss("store at " + dir_ + " has a malformed rating index entry (" +
                              it->key().ToString(/*hex=*/true) + ")");
    }
    const std::string id(parts->id);
    rocksdb::Status s = db_->Get(ro, cf(kDefault), pk::PuzzleRatingKey(id), &value);
    if (s.IsNotFound()) continue;
    if (!s.ok()) return FromRocks(s, dir_, "cannot read the rating of " + id);
    std::optional<pk::PuzzleRating> rating = pk::DecodePuzzleRating(value);
    if (!rating) {
      return Status::DataLoss("store at " + dir_ + ": the rating of puzzle " + id +
                              " has a wrong size");
    }
    const uint64_t judged = rating->judged_solved + rating->judged_failed;
    if (judged < min_judged_plays) continue;
    rocksdb::PinnableSlice record;
    s = records_.Get(ro, ToSlice(id), &record);
    if (s.IsNotFound()) continue;  // rolled back: its rating stays, it is not stored
    if (!s.ok()) return FromRocks(s, dir_, "cannot read puzzle " + id);
    foundry::v1::Puzzle puzzle;
    if (!puzzle.ParseFromArray(record.data(), static_cast<int>(record.size()))) {
      return Status::DataLoss("store at " + dir_ + ": puzzle " + id + " has an unreadable record");
    }
    visit(RatedPuzzle{id, std::string(parts->family), puzzle.difficulty().score(), rating->rating,
                      judged});
  }
  return FromRocks(it->status(), dir_, "cannot walk the rated puzzles");
}

}  // namespace foundry::storage
