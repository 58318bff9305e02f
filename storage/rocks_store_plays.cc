// RocksStore's reads of single puzzles and samples, and the play records
// that every read reports (the `plays` column family, merge operator in
// play_counts_merge.h, observed difficulty in observed_difficulty.h).
#include <chrono>
#include <cmath>
#include <random>

#include <rocksdb/db.h>
#include <rocksdb/snapshot.h>

#include "storage/draw_sampler.h"
#include "storage/keys.h"
#include "storage/observed_difficulty.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::Puzzle;

Status RocksStore::FillPlays(const std::vector<Puzzle*>& puzzles,
                             const rocksdb::Snapshot* snapshot) {
  if (puzzles.empty()) return Status::Ok();
  std::vector<rocksdb::Slice> keys;
  keys.reserve(puzzles.size());
  for (const Puzzle* p : puzzles) keys.emplace_back(p->id());
  std::vector<rocksdb::PinnableSlice> values(puzzles.size());
  std::vector<rocksdb::Status> statuses(puzzles.size());
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot;
  db_->MultiGet(ro, cf(kPlays), keys.size(), keys.data(), values.data(), statuses.data());
  for (size_t i = 0; i < puzzles.size(); ++i) {
    PlayCounts counts;
    if (statuses[i].ok()) {
      std::optional<PlayCounts> decoded = DecodePlayCounts(values[i].ToStringView());
      if (!decoded) {
        return Status::DataLoss("store at " + dir_ + ": play counts of " + puzzles[i]->id() +
                                " have a wrong size");
      }
      counts = *decoded;
    } else if (!statuses[i].IsNotFound()) {
      return FromRocks(statuses[i], dir_, "cannot read plays of " + puzzles[i]->id());
    }
    SetPlayFields(puzzles[i]->difficulty().score(), counts, *puzzles[i]);
  }
  return Status::Ok();
}

Result<Puzzle> RocksStore::ReadRecord(std::string_view id) {
  rocksdb::PinnableSlice value;
  FOUNDRY_RETURN_IF_ERROR(ReadRecordBytes(id, value));
  Puzzle puzzle;
  if (!puzzle.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
    return Status::DataLoss("store at " + dir_ + ": puzzle " + std::string(id) +
                            " has an unreadable record");
  }
  return puzzle;
}

Status RocksStore::ReadRecordBytes(std::string_view id, rocksdb::PinnableSlice& value) {
  rocksdb::Status s = records_.Get(rocksdb::ReadOptions(), ToSlice(id), &value);
  if (s.IsNotFound()) return Status::NotFound("no puzzle with id " + std::string(id));
  if (!s.ok()) return FromRocks(s, dir_, "cannot read puzzle " + std::string(id));
  return Status::Ok();
}

Result<Puzzle> RocksStore::GetPuzzle(std::string_view id) {
  Result<Puzzle> puzzle = ReadRecord(id);
  if (!puzzle.ok()) return puzzle.status();
  Result<PlayCounts> plays = GetPlays(id);
  if (!plays.ok()) return plays.status();
  SetPlayFields(puzzle->difficulty().score(), *plays, *puzzle);
  return puzzle;
}

Result<PuzzleRecord> RocksStore::GetPuzzleRecord(std::string_view id) {
  rocksdb::PinnableSlice value;
  FOUNDRY_RETURN_IF_ERROR(ReadRecordBytes(id, value));
  Result<PlayCounts> plays = GetPlays(id);
  if (!plays.ok()) return plays.status();
  return PuzzleRecord{value.ToString(), *plays};
}

Result<std::vector<std::optional<Puzzle>>> RocksStore::GetPuzzles(
    const std::vector<std::string>& ids) {
  std::vector<rocksdb::Slice> keys(ids.begin(), ids.end());
  std::vector<rocksdb::PinnableSlice> values(ids.size());
  std::vector<rocksdb::Status> statuses(ids.size());
  records_.MultiGet(rocksdb::ReadOptions(), keys.size(), keys.data(), values.data(),
                    statuses.data());
  std::vector<std::optional<Puzzle>> out(ids.size());
  std::vector<Puzzle*> found;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (statuses[i].IsNotFound()) continue;
    if (!statuses[i].ok()) return FromRocks(statuses[i], dir_, "cannot read puzzle " + ids[i]);
    out[i].emplace();
    if (!out[i]->ParseFromArray(values[i].data(), static_cast<int>(values[i].size()))) {
      return Status::DataLoss("store at " + dir_ + ": puzzle " + ids[i] +
                              " has an unreadable record");
    }
    found.push_back(&*out[i]);
  }
  FOUNDRY_RETURN_IF_ERROR(FillPlays(found, nullptr));
  return out;
}

Result<std::vector<Puzzle>> RocksStore::Sample(const PuzzleFilter& filter, size_t n,
                                               const std::unordered_set<std::string>& exclude,
                                               uint64_t seed) {
  FOUNDRY_RETURN_IF_ERROR(CheckFilter(filter));
  // The conditions a by_draw entry is checked against (the group is the
  // family and level), and the filter of the enumeration fallback.
  const DrawFilter draw_filter{filter.campaign_id,
                               filter.use_observed ? std::nullopt : filter.score,
                               filter.created_after_unix_ms, filter.created_before_unix_ms};
  PuzzleFilter scan_filter = filter;
  if (scan_filter.use_observed) scan_filter.score.reset();
  scan_filter.use_observed = false;
  const std::vector<DrawSpan> spans = groups_.Spans(filter.family, filter.level);
  const DrawSampler::Fetch fetch = [this](const std::vector<std::string>& keys,
                                          std::vector<std::optional<std::string>>& values) {
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<rocksdb::PinnableSlice> found(keys.size());
    std::vector<rocksdb::Status> statuses(keys.size());
    db_->MultiGet(rocksdb::ReadOptions(), cf(kByDraw), slices.size(), slices.data(), found.data(),
                  statuses.data());
    values.assign(keys.size(), std::nullopt);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (statuses[i].ok()) {
        values[i] = found[i].ToString();
      } else if (!statuses[i].IsNotFound()) {
        return FromRocks(statuses[i], dir_, "sample: cannot read the draw index");
      }
    }
    return Status::Ok();
  };
  // Costs what exporting every match costs (docs/store.md, "Sampling").
  const DrawSampler::Enumerate enumerate =
      [this, &scan_filter](const std::function<bool(const std::string&)>& visit) {
        Result<std::string> done =
            Scan(scan_filter, "", 0, [&visit](const Puzzle& p) { return visit(p.id()); });
        return done.ok() ? Status::Ok() : done.status();
      };
  // Unseeded draws continue one generator per thread, seeded once:
  // std::random_device costs ~12 us per construction here (cpuid traps to
  // the hypervisor), more than the rest of a one-puzzle Sample.
  thread_local std::mt19937_64 unseeded(
      std::random_device{}() ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::mt19937_64 seeded(seed);
  std::mt19937_64& rng = seed != 0 ? seeded : unseeded;
  const bool observed_range = filter.use_observed && filter.score.has_value();
  std::vector<Puzzle> out;
  // Rounds: the draw index gives uniform draws among the candidates not yet tried;
  // with an observed-score range, the drawn puzzles that fail it are set
  // aside and the next round draws among the rest. Each round is uniform
  // over what remains, so the accepted puzzles are a uniform sample of the
  // puzzles that pass the whole filter.
  std::unordered_set<std::string> tried;
  const std::unordered_set<std::string>* skip = &exclude;
  while (out.size() < n) {
    const size_t want =
        observed_range ? std::max<size_t>(2 * (n - out.size()), 64) : n - out.size();
    Result<std::vector<std::string>> drawn =
        DrawSampler::Sample(spans, draw_filter, want, *skip, rng, fetch, enumerate);
    if (!drawn.ok()) return drawn.status();
    std::vector<std::string> ids = std::move(drawn).value();
    if (ids.empty()) break;
    std::vector<rocksdb::Slice> keys(ids.begin(), ids.end());
    std::vector<rocksdb::PinnableSlice> values(ids.size());
    std::vector<rocksdb::Status> statuses(ids.size());
    records_.MultiGet(rocksdb::ReadOptions(), keys.size(), keys.data(), values.data(),
                      statuses.data());
    std::vector<Puzzle> round(ids.size());
    std::vector<Puzzle*> ptrs;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (!statuses[i].ok())
        return FromRocks(statuses[i], dir_, "sample: cannot read puzzle " + ids[i]);
      if (!round[i].ParseFromArray(values[i].data(), static_cast<int>(values[i].size()))) {
        return Status::DataLoss("store at " + dir_ + ": puzzle " + ids[i] +
                                " has an unreadable record");
      }
      ptrs.push_back(&round[i]);
    }
    FOUNDRY_RETURN_IF_ERROR(FillPlays(ptrs, nullptr));
    for (Puzzle& p : round) {
      const double score = p.observed().score();
      if (!observed_range || (score >= filter.score->first && score <= filter.score->second)) {
        if (out.size() < n) out.push_back(std::move(p));
      }
    }
    if (!observed_range) break;  // the draw already gave all it could
    if (skip == &exclude) {
      tried = exclude;
      skip = &tried;
    }
    tried.insert(ids.begin(), ids.end());
  }
  return out;
}

Result<foundry::v1::RecordPlayResponse> RocksStore::RecordPlay(std::string_view id, bool solved,
                                                               double seconds) {
  if (!(seconds >= 0 && seconds <= 86400)) {
    return Status::InvalidArgument("seconds must be between 0 and 86400 (one day)");
  }
  // Existence, not the counts: Merge needs no read, but a play of a puzzle
  // that is not stored would be a record nobody can ever see.
  // (The record, not the plays: those are read once, after the merge.)
  Result<Puzzle> puzzle = ReadRecord(id);
  if (!puzzle.ok()) return puzzle.status();
  PlayCounts delta;
  (solved ? delta.solved : delta.failed) = 1;
  if (solved) delta.solve_ms = static_cast<uint64_t>(std::llround(seconds * 1000));
  FOUNDRY_RETURN_IF_ERROR(AddPlays(id, delta));
  plays_recorded_.fetch_add(1, std::memory_order_relaxed);
  FOUNDRY_RETURN_IF_ERROR(FillPlays({&*puzzle}, nullptr));
  foundry::v1::RecordPlayResponse resp;
  *resp.mutable_plays() = puzzle->plays();
  *resp.mutable_observed() = puzzle->observed();
  return resp;
}

Status RocksStore::AddPlays(std::string_view id, const PlayCounts& delta) {
  if (id.empty()) return Status::InvalidArgument("play counts need a puzzle id");
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  return FromRocks(db_->Merge(wo, cf(kPlays), ToSlice(id), EncodePlayCounts(delta)), dir_,
                   "cannot record plays of " + std::string(id));
}

Result<PlayCounts> RocksStore::GetPlays(std::string_view id) {
  rocksdb::PinnableSlice value;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), cf(kPlays), ToSlice(id), &value);
  if (s.IsNotFound()) return PlayCounts{};
  if (!s.ok()) return FromRocks(s, dir_, "cannot read plays of " + std::string(id));
  std::optional<PlayCounts> counts = DecodePlayCounts(value.ToStringView());
  if (!counts) {
    return Status::DataLoss("store at " + dir_ + ": play counts of " + std::string(id) +
                            " have a wrong size");
  }
  return *counts;
}

}  // namespace foundry::storage
