// RocksStore, part 2: the draw counters at open, the schema upgrades 1 and
// 2, counts and campaigns. Key layouts: keys.h. Locking: rocks_store.h.
#include "storage/rocks_store.h"

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/statistics.h>
#include <rocksdb/write_batch.h>

#include "storage/keys.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::Campaign;
using foundry::v1::Puzzle;

Status RocksStore::LoadDrawGroups() {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(kDefault)));
  DrawGroupMap groups;
  for (it->Seek(ToSlice(keys::kDrawGroupsBegin));
       it->Valid() && it->key().ToStringView() < keys::kDrawGroupsEnd; it->Next()) {
    std::optional<keys::DrawGroupName> name = keys::ParseDrawGroupKey(it->key().ToStringView());
    std::optional<std::pair<uint64_t, uint64_t>> counters =
        keys::DecodeDrawCounters(it->value().ToStringView());
    if (!name || !counters) {
      return Status::DataLoss("store at " + dir_ + " has a malformed draw group entry (" +
                              it->key().ToString(/*hex=*/true) + ")");
    }
    groups[{std::string(name->family), std::string(name->level)}] = {counters->first,
                                                                     counters->second};
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "cannot read the draw groups");
  groups_.Reset(std::move(groups));
  return Status::Ok();
}

Status RocksStore::UpgradeFromVersion1() {
  // Fill by_score and by_created from the puzzles, a batch at a time. Puts
  // are idempotent, and schema_version turns 2 only at the end, so a crash
  // anywhere here just means the next Open does it again.
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(kPuzzles)));
  rocksdb::WriteBatch wb;
  Puzzle p;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!p.ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) {
      return Status::DataLoss("store at " + dir_ + ": puzzle " + it->key().ToString() +
                              " has an unreadable record");
    }
    rocksdb::Status s = wb.Put(cf(kByScore), ByScoreKeyOf(p), CatalogValueOf(p));
    if (s.ok()) s = wb.Put(cf(kByCreated), keys::ByCreatedKey(p.created_unix_ms(), p.id()), "");
    if (s.ok() && wb.Count() >= 8192) {
      s = db_->Write(rocksdb::WriteOptions(), &wb);
      wb.Clear();
    }
    if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 2: cannot write the new indexes");
  }
  if (!it->status().ok())
    return FromRocks(it->status(), dir_, "upgrade to schema 2: cannot read puzzles");
  rocksdb::WriteOptions sync;
  sync.sync = true;
  rocksdb::Status s = db_->Write(sync, &wb);
  if (s.ok()) {
    s = db_->Put(sync, cf(kDefault), ToSlice(keys::kSchemaVersionKey),
                 keys::EncodeSchemaVersion(2));
  }
  return FromRocks(s, dir_, "upgrade to schema 2");
}

Status RocksStore::UpgradeFromVersion2() {
  // Empty by_family and record version 3 in one atomic write: a crash leaves
  // either a version 2 store (upgraded again on the next Open) or a version
  // 3 one; by_score answers every listing by family and level.
  rocksdb::WriteBatch wb;
  {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(kByFamily)));
    it->SeekToFirst();
    if (it->Valid()) {
      const std::string first = it->key().ToString();
      it->SeekToLast();
      const std::string last = it->key().ToString();
      rocksdb::Status s = wb.DeleteRange(cf(kByFamily), first, last);  // [first, last)
      if (s.ok()) s = wb.Delete(cf(kByFamily), last);
      if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 3: cannot build the write batch");
    }
    if (!it->status().ok())
      return FromRocks(it->status(), dir_, "upgrade to schema 3: cannot read by_family");
  }
  rocksdb::Status s =
      wb.Put(cf(kDefault), ToSlice(keys::kSchemaVersionKey), keys::EncodeSchemaVersion(3));
  rocksdb::WriteOptions sync;
  sync.sync = true;
  if (s.ok()) s = db_->Write(sync, &wb);
  if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 3");
  // Give the space back now rather than at some later compaction; a failure
  // here loses nothing (the entries are deleted either way).
  db_->CompactRange(rocksdb::CompactRangeOptions(), cf(kByFamily), nullptr, nullptr)
      .PermitUncheckedError();
  return Status::Ok();
}

std::string RocksStore::ByScoreKeyOf(const Puzzle& p) {
  return keys::ByScoreKey(p.family(), p.difficulty().score(), p.id());
}

std::string RocksStore::CatalogValueOf(const Puzzle& p) {
  return keys::EncodeCatalogValue(p.difficulty().level(), p.created_unix_ms(), p.campaign_id());
}

// ---------------------------------------------------------------------------
// Puzzles

Result<std::vector<bool>> RocksStore::ContainsPuzzles(const std::vector<std::string>& ids) {
  std::vector<bool> found(ids.size(), false);
  if (ids.empty()) return found;
  std::vector<rocksdb::Slice> slices;
  slices.reserve(ids.size());
  for (const std::string& id : ids) slices.emplace_back(id);
  std::vector<rocksdb::PinnableSlice> values(ids.size());
  std::vector<rocksdb::Status> statuses(ids.size());
  db_->MultiGet(rocksdb::ReadOptions(), cf(kPuzzles), ids.size(), slices.data(), values.data(),
                statuses.data());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (statuses[i].ok()) {
      found[i] = true;
    } else if (!statuses[i].IsNotFound()) {
      return FromRocks(statuses[i], dir_, "cannot look up puzzle " + ids[i]);
    }
  }
  return found;
}

std::map<std::string, uint64_t> RocksStore::PuzzleCounts() {
  std::map<std::string, uint64_t> counts;
  for (const auto& [group, n] : groups_.LevelCounts()) counts[group.first] += n;
  return counts;
}

std::map<std::pair<std::string, std::string>, uint64_t> RocksStore::LevelCounts() {
  return groups_.LevelCounts();
}

void RocksStore::StartFlush() {
  rocksdb::FlushOptions background;
  background.wait = false;
  background.allow_write_stall = true;  // never wait, not even for a stall
  db_->Flush(background, handles_).PermitUncheckedError();
}

bool RocksStore::SettleCompactions(std::chrono::milliseconds limit, const std::atomic<bool>& stop) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  // A store in a background error (a full disk) runs no compaction until
  // it recovers: waiting would only wait out the limit. RocksDB counts the
  // errors since the open, so a store that had one and recovered is left
  // owing, as it was before this wait existed.
  const auto failed = [&] {
    uint64_t errors = 0;
    return db_->GetIntProperty(rocksdb::DB::Properties::kBackgroundErrors, &errors) && errors > 0;
  };
  const auto owed = [&] {
    uint64_t v = 0;
    if (db_->GetIntProperty(rocksdb::DB::Properties::kNumRunningCompactions, &v) && v > 0) {
      return true;
    }
    for (rocksdb::ColumnFamilyHandle* h : handles_) {
      if (db_->GetIntProperty(h, rocksdb::DB::Properties::kCompactionPending, &v) && v > 0) {
        return true;
      }
    }
    return false;
  };
  while (owed()) {
    if (stop.load() || failed() || std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

StoreStats RocksStore::Stats(bool count_levels) {
  StoreStats st;
  auto sum = [&](const std::string& property) {
    uint64_t v = 0;
    return db_->GetAggregatedIntProperty(property, &v) ? static_cast<double>(v) : 0.0;
  };
  // DB-wide properties and those of the shared block cache: read once.
  auto one = [&](const std::string& property) {
    uint64_t v = 0;
    return db_->GetIntProperty(cf(kDefault), property, &v) ? static_cast<double>(v) : 0.0;
  };
  using P = rocksdb::DB::Properties;
  st.live_data_bytes = sum(P::kEstimateLiveDataSize);
  st.sst_files_bytes = sum(P::kTotalSstFilesSize);
  st.memtable_bytes = sum(P::kCurSizeAllMemTables);
  st.pending_compaction_bytes = sum(P::kEstimatePendingCompactionBytes);
  st.running_compactions = one(P::kNumRunningCompactions);
  st.running_flushes = one(P::kNumRunningFlushes);
  st.write_stopped = one(P::kIsWriteStopped) != 0;
  st.delayed_write_rate_bytes = one(P::kActualDelayedWriteRate);
  st.block_cache_usage_bytes = one(P::kBlockCacheUsage);
  st.block_cache_capacity_bytes = one(P::kBlockCacheCapacity);
  if (const std::shared_ptr<rocksdb::Statistics> stats = db_->GetDBOptions().statistics) {
    st.write_stall_seconds =
        static_cast<double>(stats->getTickerCount(rocksdb::STALL_MICROS)) / 1e6;
    st.block_cache_hits = stats->getTickerCount(rocksdb::BLOCK_CACHE_HIT);
    st.block_cache_misses = stats->getTickerCount(rocksdb::BLOCK_CACHE_MISS);
  }
  if (count_levels) {
    st.puzzles_by_level = groups_.LevelCounts();
    st.has_level_counts = true;
  }
  return st;
}

// ---------------------------------------------------------------------------
// Campaigns

Status RocksStore::PutCampaign(const Campaign& campaign) {
  if (campaign.id().empty()) return Status::InvalidArgument("campaign has no id");
  if (!keys::IsValidKeyComponent(campaign.id())) {
    return Status::InvalidArgument("campaign id contains a NUL byte");
  }
  std::string bytes;
  if (!SerializeReadable(campaign, &bytes)) {
    return Status::InvalidArgument("campaign " + campaign.id() +
                                   " does not serialize to a readable record (a string field "
                                   "that is not valid UTF-8?)");
  }
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  return FromRocks(db_->Put(wo, cf(kCampaigns), campaign.id(), bytes), dir_,
                   "cannot write campaign " + campaign.id());
}

Result<std::vector<Campaign>> RocksStore::LoadCampaigns() {
  std::vector<Campaign> campaigns;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(kCampaigns)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Campaign campaign;
    const rocksdb::Slice value = it->value();
    if (!campaign.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
      return Status::DataLoss("store at " + dir_ + ": campaign " + it->key().ToString() +
                              " has an unreadable record");
    }
    campaigns.push_back(std::move(campaign));
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "cannot read campaigns");
  return campaigns;
}

Status RocksStore::WriteState() {
  if (write_stop_->stopped()) {
    return Status::ResourceExhausted(
        "the disk of the store at " + dir_ +
        " filled up under RocksDB; commits wait until it has recovered by itself, which it "
        "does once the disk has room for its memtables again; reads go on (RocksDB: " +
        write_stop_->reason() + ")");
  }
  if (min_free_bytes_ == 0) return Status::Ok();
  const std::optional<uint64_t> free = FreeBytes(dir_);
  if (!free || *free >= min_free_bytes_) return Status::Ok();
  const uint64_t free_bytes = *free;
  return Status::ResourceExhausted(fmt::format(
      "the disk of the store at {} is full: {:.1f} MiB free, below the {:.1f} MiB kept free "
      "for the database's own work (--min-free-disk-mb); commits wait for space, reads go on",
      dir_, static_cast<double>(free_bytes) / (1 << 20),
      static_cast<double>(min_free_bytes_) / (1 << 20)));
}

}  // namespace foundry::storage
