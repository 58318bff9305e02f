// RocksStore: the upgrades of a schema 3 store to schema 4, which adds the
// by_draw sampling index, the draw groups' counters and the seqs in the
// by_created values (keys.h), and of a schema 4 store to schema 5, which
// keeps the records in write order (record_table.h). They run inside Open,
// before anyone else can use the store.
#include <chrono>
#include <cstdio>
#include <optional>

#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/write_batch.h>

#include "storage/keys.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

namespace {

// Deletes every key of `cf` with one range delete (and a point delete of the
// last key, which the range leaves out). Nothing when it is empty.
rocksdb::Status ClearColumnFamily(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf,
                                  rocksdb::WriteBatch& wb) {
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), cf));
  it->SeekToFirst();
  if (!it->Valid()) return it->status();
  const std::string first = it->key().ToString();
  it->SeekToLast();
  if (!it->Valid()) return it->status();
  const std::string last = it->key().ToString();
  rocksdb::Status s = wb.DeleteRange(cf, first, last);
  if (s.ok()) s = wb.Delete(cf, last);
  return s;
}

}  // namespace

Status RocksStore::UpgradeFromVersion3() {
  // Why this is safe to interrupt anywhere: step 1 throws away whatever an
  // earlier, interrupted run wrote; step 2 only adds by_draw entries and
  // overwrites by_created values (which schema 3 leaves empty and never
  // reads); schema_version turns 4, with the counters, in the last write.
  // Until then the store is a schema 3 store that the next Open upgrades
  // again from the start.
  const auto t0 = std::chrono::steady_clock::now();
  std::fprintf(stderr, "%s",
               fmt::format("foundry store: upgrading {} from schema version 3 to 4 (building the "
                           "by_draw sampling index from by_score)\n",
                           dir_)
                   .c_str());
  rocksdb::WriteOptions sync;
  sync.sync = true;

  // 1. Start from nothing.
  {
    rocksdb::WriteBatch wb;
    rocksdb::Status s = ClearColumnFamily(db_.get(), cf(kByDraw), wb);
    if (s.ok())
      s = wb.DeleteRange(cf(kDefault), ToSlice(keys::kDrawGroupsBegin),
                         ToSlice(keys::kDrawGroupsEnd));
    if (s.ok()) s = db_->Write(sync, &wb);
    if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 4: cannot clear by_draw");
  }

  // 2. One pass over by_score, which holds every fact a draw checks. Seqs
  //    are given in by_score order within each (family, level).
  DrawGroupMap groups;
  uint64_t puzzles = 0;
  {
    rocksdb::ReadOptions ro;
    ro.fill_cache = false;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(kByScore)));
    rocksdb::WriteBatch wb;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::optional<keys::ByScoreParts> key = keys::ParseByScoreKey(it->key().ToStringView());
      std::optional<keys::CatalogValue> value =
          keys::DecodeCatalogValue(it->value().ToStringView());
      if (!key || !value) {
        return Status::DataLoss("upgrade to schema 4: store at " + dir_ +
                                " has a malformed by_score entry (" +
                                it->key().ToString(/*hex=*/true) + ")");
      }
      DrawCounters& group = groups[{std::string(key->family), std::string(value->level)}];
      const uint64_t seq = group.next++;
      ++group.live;
      ++puzzles;
      rocksdb::Status s = wb.Put(
          cf(kByDraw), keys::DrawKey(key->family, value->level, seq),
          keys::EncodeDrawValue(key->score, value->created_unix_ms, value->campaign_id, key->id));
      if (s.ok()) {
        s = wb.Put(cf(kByCreated), keys::ByCreatedKey(value->created_unix_ms, key->id),
                   keys::EncodeSeq(seq));
      }
      if (s.ok() && wb.Count() >= 16384) {
        s = db_->Write(rocksdb::WriteOptions(), &wb);
        wb.Clear();
      }
      if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 4: cannot write by_draw");
    }
    if (!it->status().ok())
      return FromRocks(it->status(), dir_, "upgrade to schema 4: cannot read by_score");
    rocksdb::Status s = db_->Write(rocksdb::WriteOptions(), &wb);
    if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 4: cannot write by_draw");
  }

  // 3. The counters and the version, together and durably (the sync also
  //    makes every earlier write of the upgrade durable: one WAL).
  rocksdb::WriteBatch wb;
  rocksdb::Status s;
  for (const auto& [group, counters] : groups) {
    s = wb.Put(cf(kDefault), keys::DrawGroupKey(group.first, group.second),
               keys::EncodeDrawCounters(counters.next, counters.live));
    if (!s.ok()) break;
  }
  if (s.ok())
    s = wb.Put(cf(kDefault), ToSlice(keys::kSchemaVersionKey), keys::EncodeSchemaVersion(4));
  if (s.ok()) s = db_->Write(sync, &wb);
  if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 4");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(
      stderr, "%s",
      fmt::format("foundry store: upgraded {} to schema version 4: {} puzzles in {} groups "
                  "indexed in {:.1f} s\n",
                  dir_, puzzles, groups.size(), seconds)
          .c_str());
  return Status::Ok();
}

Status RocksStore::UpgradeToVersion5(int version) {
  // Why this is safe to interrupt anywhere: the first write sets the version
  // to 5 (so a build of schema 4 no longer opens a store it would misread)
  // with a cursor; each batch then moves the records of the next ids, in id
  // order, with the cursor, atomically. A later Open finds the cursor and
  // goes on after it; the last write removes it.
  rocksdb::WriteOptions sync;
  sync.sync = true;
  std::string after;
  if (version == 4) {
    rocksdb::WriteBatch wb;
    rocksdb::Status s =
        wb.Put(cf(kDefault), ToSlice(keys::kSchemaVersionKey), keys::EncodeSchemaVersion(5));
    if (s.ok()) s = wb.Put(cf(kDefault), ToSlice(keys::kUpgradeV5AfterKey), "");
    if (s.ok()) s = db_->Write(sync, &wb);
    if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 5: cannot start");
  } else {
    Result<bool> pending = GetMeta(std::string(keys::kUpgradeV5AfterKey), &after);
    if (!pending.ok()) return pending.status();
    if (!*pending) return Status::Ok();
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::fprintf(stderr, "%s",
               fmt::format("foundry store: upgrading {} to schema version 5 (records in write "
                           "order){}\n",
                           dir_, after.empty() ? "" : ", going on after puzzle " + after)
                   .c_str());
  rocksdb::Status s = records_.Load();  // what an interrupted move wrote
  if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 5: cannot read the records");
  uint64_t moved = 0;
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(kPuzzles)));
  rocksdb::WriteBatch wb;
  const auto write = [&](rocksdb::Slice last) {
    rocksdb::Status w = wb.Put(cf(kDefault), ToSlice(keys::kUpgradeV5AfterKey), last);
    if (w.ok()) w = db_->Write(rocksdb::WriteOptions(), &wb);
    wb.Clear();
    return w;
  };
  if (after.empty()) {
    it->SeekToFirst();
  } else {
    it->Seek(after);
    if (it->Valid() && it->key() == rocksdb::Slice(after)) it->Next();
  }
  std::string last;
  for (; it->Valid(); it->Next()) {
    s = records_.Append(wb, it->key(), it->value());
    ++moved;
    if (s.ok() && wb.Count() >= 16384) s = write(it->key());
    if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 5: cannot move the records");
    last = it->key().ToString();
  }
  if (!it->status().ok())
    return FromRocks(it->status(), dir_, "upgrade to schema 5: cannot read the puzzles");
  if (wb.Count() > 0) {
    s = write(last);
    if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 5: cannot move the records");
  }
  // The end, durably (the sync also makes every earlier batch durable: one
  // WAL).
  s = db_->Delete(sync, cf(kDefault), ToSlice(keys::kUpgradeV5AfterKey));
  if (!s.ok()) return FromRocks(s, dir_, "upgrade to schema 5");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "%s",
               fmt::format("foundry store: upgraded {} to schema version 5: {} records moved "
                           "in {:.1f} s\n",
                           dir_, moved, seconds)
                   .c_str());
  return Status::Ok();
}

}  // namespace foundry::storage
