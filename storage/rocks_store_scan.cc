// RocksStore::Scan: paged walks over one index with the filter's remaining
// conditions checked on each puzzle. Key layouts: keys.h.
#include <algorithm>
#include <deque>
#include <limits>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/snapshot.h>

#include "storage/keys.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::Puzzle;

namespace {

// The first key after every key that starts with `prefix` (prefixes here end
// in a byte below 0xff: \0 or a score/time byte that is bumped only when
// below 0xff, see ScoreUpperBound).
std::string PrefixEnd(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xff) prefix.pop_back();
  if (!prefix.empty()) prefix.back() = static_cast<char>(prefix.back() + 1);
  return prefix;
}

// Whether a puzzle (with its plays filled) passes the filter.
bool Matches(const PuzzleFilter& f, const Puzzle& p) {
  if (!f.family.empty() && p.family() != f.family) return false;
  if (!f.level.empty() && p.difficulty().level() != f.level) return false;
  if (!f.campaign_id.empty() && p.campaign_id() != f.campaign_id) return false;
  if (f.score) {
    const double score = f.use_observed ? p.observed().score() : p.difficulty().score();
    if (score < f.score->first || score > f.score->second) return false;
  }
  if (f.created_after_unix_ms != 0 && p.created_unix_ms() < f.created_after_unix_ms) return false;
  if (f.created_before_unix_ms != 0 && p.created_unix_ms() >= f.created_before_unix_ms)
    return false;
  return true;
}

// One visited (or about to be visited) entry: its key in the walked column
// family and its puzzle.
struct ScanEntry {
  std::string key;
  Puzzle puzzle;
};

}  // namespace

// Which index a scan walks and the key range [lower, upper) it covers there
// (upper empty: to the end).
struct RocksStore::ScanPlan {
  Cf walked = kPuzzles;
  keys::ScanIndex index = keys::ScanIndex::kPuzzles;
  std::string lower;
  std::string upper;
};

RocksStore::ScanPlan RocksStore::PlanScan(const PuzzleFilter& f) const {
  ScanPlan plan;
  if (!f.campaign_id.empty()) {
    // A campaign's members are the narrowest index we have.
    plan.walked = kCampaignMembers;
    plan.index = keys::ScanIndex::kCampaignMembers;
    plan.lower = keys::CampaignMemberPrefix(f.campaign_id);
    plan.upper = PrefixEnd(plan.lower);
  } else if (!f.family.empty()) {
    // A family, in score order: over the generator-score range when there
    // is one, else the whole family. A level is checked on the index value
    // (it holds the level) before any record is read.
    plan.walked = kByScore;
    plan.index = keys::ScanIndex::kByScore;
    if (f.score && !f.use_observed) {
      plan.lower = keys::ByScoreKeyPrefix(f.family, f.score->first);
      plan.upper = PrefixEnd(keys::ByScoreKeyPrefix(f.family, f.score->second));
    } else {
      plan.lower = keys::FamilyPrefix(f.family);
      plan.upper = PrefixEnd(plan.lower);
    }
  } else if (f.created_after_unix_ms != 0 || f.created_before_unix_ms != 0) {
    plan.walked = kByCreated;
    plan.index = keys::ScanIndex::kByCreated;
    plan.lower = keys::TimeKey(f.created_after_unix_ms != 0 ? f.created_after_unix_ms
                                                            : std::numeric_limits<int64_t>::min());
    if (f.created_before_unix_ms != 0) plan.upper = keys::TimeKey(f.created_before_unix_ms);
  }
  return plan;
}

namespace {

// Walks one column family over a key range, in key order, turning entries
// into puzzles (by MultiGet of their records, a batch at a time), filling
// their plays and dropping those that fail the filter. All reads use the
// caller's snapshot.
class ScanCursor {
 public:
  using FillPlays = std::function<Status(std::vector<Puzzle*>&)>;
  struct Config {
    rocksdb::DB* db;
    const rocksdb::Snapshot* snapshot;
    rocksdb::ColumnFamilyHandle* walked;
    const RecordTable* records;
    keys::ScanIndex index;
    std::string lower, upper;
    const PuzzleFilter* filter;
    FillPlays fill_plays;
    size_t batch;
    const std::string* dir;
  };

  explicit ScanCursor(Config config) : c_(std::move(config)) {
    c_.batch = std::max<size_t>(c_.batch, 1);  // Fill must make progress
    rocksdb::ReadOptions ro;
    ro.snapshot = c_.snapshot;
    if (!c_.upper.empty()) {
      upper_slice_ = rocksdb::Slice(c_.upper);
      ro.iterate_upper_bound = &upper_slice_;
    }
    it_.reset(c_.db->NewIterator(ro, c_.walked));
  }

  // Positions the cursor at the first entry after `after` (empty: at the
  // start of the range).
  void Start(const std::string& after) {
    if (after.empty()) {
      it_->Seek(c_.lower);
      return;
    }
    it_->Seek(after);
    if (it_->Valid() && it_->key() == rocksdb::Slice(after)) it_->Next();
  }

  // The next matching entry, or nullopt at the end.
  Result<std::optional<ScanEntry>> Next() {
    while (ready_.empty() && !exhausted_) FOUNDRY_RETURN_IF_ERROR(Fill());
    if (ready_.empty()) return std::optional<ScanEntry>();
    std::optional<ScanEntry> entry(std::move(ready_.front()));
    ready_.pop_front();
    return entry;
  }

 private:
  Status Corrupt(const std::string& what) const {
    return Status::DataLoss("store at " + *c_.dir + ": " + what);
  }

  Status Fill() {
    std::vector<ScanEntry> batch;
    std::vector<std::string> ids;
    while (it_->Valid() && batch.size() < c_.batch) {
      const rocksdb::Slice key = it_->key();
      if (c_.index == keys::ScanIndex::kByScore && !c_.filter->level.empty()) {
        // by_score's value holds the level: skip another level's entry
        // before anything is copied or read.
        std::optional<keys::CatalogValue> value =
            keys::DecodeCatalogValue(it_->value().ToStringView());
        if (!value) return Corrupt("malformed by_score value at " + key.ToString(/*hex=*/true));
        if (value->level != c_.filter->level) {
          it_->Next();
          continue;
        }
      }
      ScanEntry entry{key.ToString(), Puzzle()};
      switch (c_.index) {
        case keys::ScanIndex::kPuzzles:
          ids.push_back(entry.key);
          break;
        case keys::ScanIndex::kByScore: {
          std::optional<keys::ByScoreParts> parts = keys::ParseByScoreKey(key.ToStringView());
          if (!parts) return Corrupt("malformed by_score key " + key.ToString(/*hex=*/true));
          ids.emplace_back(parts->id);
          break;
        }
        case keys::ScanIndex::kByCreated: {
          if (key.size() <= 8) return Corrupt("malformed by_created key " + key.ToString(true));
          ids.emplace_back(key.data() + 8, key.size() - 8);
          break;
        }
        case keys::ScanIndex::kCampaignMembers: {
          if (it_->value().empty()) return Corrupt("empty campaign member " + key.ToString(true));
          ids.push_back(it_->value().ToString());
          break;
        }
      }
      batch.push_back(std::move(entry));
      it_->Next();
    }
    if (!it_->Valid()) {
      if (!it_->status().ok()) return FromRocks(it_->status(), *c_.dir, "scan");
      exhausted_ = true;
    }
    if (!ids.empty()) {
      std::vector<rocksdb::Slice> slices(ids.begin(), ids.end());
      std::vector<rocksdb::PinnableSlice> values(ids.size());
      std::vector<rocksdb::Status> statuses(ids.size());
      rocksdb::ReadOptions ro;
      ro.snapshot = c_.snapshot;
      c_.records->MultiGet(ro, ids.size(), slices.data(), values.data(), statuses.data());
      for (size_t i = 0; i < ids.size(); ++i) {
        if (statuses[i].IsNotFound()) {
          return Corrupt("an index entry names puzzle " + ids[i] + ", which is not stored");
        }
        if (!statuses[i].ok())
          return FromRocks(statuses[i], *c_.dir, "scan: cannot read puzzle " + ids[i]);
        if (!batch[i].puzzle.ParseFromArray(values[i].data(), static_cast<int>(values[i].size()))) {
          return Corrupt("puzzle " + ids[i] + " has an unreadable record");
        }
      }
    }
    std::vector<Puzzle*> puzzles;
    for (ScanEntry& e : batch) puzzles.push_back(&e.puzzle);
    FOUNDRY_RETURN_IF_ERROR(c_.fill_plays(puzzles));
    for (ScanEntry& e : batch) {
      if (Matches(*c_.filter, e.puzzle)) ready_.push_back(std::move(e));
    }
    return Status::Ok();
  }

  Config c_;
  rocksdb::Slice upper_slice_;
  std::unique_ptr<rocksdb::Iterator> it_;
  std::deque<ScanEntry> ready_;
  bool exhausted_ = false;
};

}  // namespace

Status RocksStore::CheckFilter(const PuzzleFilter& filter) {
  if (!keys::IsValidKeyComponent(filter.family) || !keys::IsValidKeyComponent(filter.level) ||
      !keys::IsValidKeyComponent(filter.campaign_id)) {
    return Status::InvalidArgument("filter fields must not contain a NUL byte");
  }
  if (!filter.level.empty() && filter.family.empty()) {
    return Status::InvalidArgument("a filter on level needs a family");
  }
  if (filter.score && !(filter.score->first <= filter.score->second)) {
    return Status::InvalidArgument("a score range needs min <= max (and no NaN)");
  }
  if (filter.created_after_unix_ms != 0 && filter.created_before_unix_ms != 0 &&
      filter.created_after_unix_ms > filter.created_before_unix_ms) {
    return Status::InvalidArgument("created_after must not be later than created_before");
  }
  return Status::Ok();
}

Result<std::string> RocksStore::Scan(const PuzzleFilter& filter, std::string_view page_token,
                                     uint64_t limit,
                                     const std::function<bool(const Puzzle&)>& visit) {
  FOUNDRY_RETURN_IF_ERROR(CheckFilter(filter));
  ScanPlan plan = PlanScan(filter);
  rocksdb::ManagedSnapshot snapshot(db_.get());

  std::string start_after;
  if (!page_token.empty()) {
    // A token must come from a scan of the same index and lie in its range;
    // anything else would silently skip or repeat puzzles.
    std::optional<keys::PageToken> token = keys::DecodePageToken(page_token);
    if (!token || token->index != plan.index || token->key < plan.lower ||
        (!plan.upper.empty() && token->key >= plan.upper)) {
      return Status::InvalidArgument("invalid page token (not from a query with this filter)");
    }
    start_after = std::move(token->key);
  }

  // Enough to fill the page and see whether another entry follows; larger
  // pages are fetched 256 at a time.
  constexpr uint64_t kMaxBatch = 256;
  const rocksdb::Snapshot* snap = snapshot.snapshot();
  ScanCursor cursor(ScanCursor::Config{
      db_.get(), snap, cf(plan.walked), &records_, plan.index, plan.lower, plan.upper, &filter,
      [this, snap](std::vector<Puzzle*>& puzzles) { return FillPlays(puzzles, snap); },
      static_cast<size_t>(limit == 0 || limit >= kMaxBatch ? kMaxBatch : limit + 1), &dir_});
  cursor.Start(start_after);

  uint64_t visited = 0;
  Result<std::optional<ScanEntry>> current = cursor.Next();
  while (true) {
    if (!current.ok()) return current.status();
    if (!current->has_value()) return std::string();
    ScanEntry& entry = **current;
    const bool go_on = visit(entry.puzzle);
    ++visited;
    const std::string last_key = std::move(entry.key);
    // Look ahead: the token is only worth returning if something follows.
    current = cursor.Next();
    if (!current.ok()) return current.status();
    if (!current->has_value()) return std::string();
    if (!go_on || (limit != 0 && visited >= limit))
      return keys::EncodePageToken(plan.index, last_key);
  }
}

}  // namespace foundry::storage
