// Helpers shared by the storage tests: a temporary directory per test, puzzle
// and campaign builders, and raw RocksDB access to a store's files.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/puzzle.pb.h"
#include "storage/keys.h"
#include "storage/play_counts_merge.h"
#include "storage/store.h"

namespace foundry::storage::testing {

// A fresh, empty directory, removed (with everything in it) on destruction.
class TempDir {
 public:
  TempDir() {
    static std::atomic<uint64_t> counter{0};
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    path_ = std::filesystem::temp_directory_path() /
            ("foundry-storage-test-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter.fetch_add(1)) + "-" + std::to_string(now));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // A path inside the directory (not created).
  std::string Sub(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// An id shaped like the real ones ("sn-" and 32 hex digits), unique per
// (family, campaign, index) and in an order unrelated to the index.
inline std::string MakeId(const std::string& family, const std::string& campaign, uint64_t index) {
  uint64_t h = std::hash<std::string>{}(family + "/" + campaign);
  const uint64_t a = Mix64(h ^ index);
  const uint64_t b = Mix64(a ^ 0x5bd1e995ULL);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return family.substr(0, 2) + "-" + buf;
}

inline foundry::v1::Puzzle MakePuzzle(const std::string& family, const std::string& level,
                                      const std::string& campaign, uint64_t index) {
  foundry::v1::Puzzle p;
  p.set_id(MakeId(family, campaign, index));
  p.set_family(family);
  p.set_campaign_id(campaign);
  p.set_seed(42);
  p.set_index(index);
  p.set_params_json("{\"digits\":3}");
  p.mutable_difficulty()->set_level(level);
  p.mutable_difficulty()->set_score(static_cast<double>(index % 100) / 100.0);
  p.mutable_difficulty()->set_details_json("{}");
  p.set_puzzle_json("{\"index\":" + std::to_string(index) + "}");
  p.set_solution_json("{\"number\":909}");
  p.set_created_unix_ms(1700000000000 + static_cast<int64_t>(index));
  return p;
}

inline foundry::v1::Campaign MakeCampaign(const std::string& id, const std::string& family,
                                          uint64_t next_index) {
  foundry::v1::Campaign c;
  c.set_id(id);
  c.mutable_spec()->set_family(family);
  c.mutable_spec()->set_count(1000);
  c.mutable_spec()->set_seed(42);
  c.set_state(foundry::v1::CAMPAIGN_STATE_RUNNING);
  c.set_next_index(next_index);
  c.mutable_counters()->set_stored(next_index);
  return c;
}

inline bool SameMessage(const google::protobuf::Message& a, const google::protobuf::Message& b) {
  return a.SerializeAsString() == b.SerializeAsString();
}

// A puzzle as stored, without the play figures that every read adds.
inline foundry::v1::Puzzle WithoutPlays(foundry::v1::Puzzle p) {
  p.clear_plays();
  p.clear_observed();
  return p;
}

// Every puzzle a Scan visits, in order, and the token it returned.
struct ScanResult {
  std::vector<foundry::v1::Puzzle> puzzles;
  std::string token;
};

inline Result<ScanResult> ScanAll(Store& store, const PuzzleFilter& filter,
                                  const std::string& token = "", uint64_t limit = 0) {
  ScanResult out;
  Result<std::string> next = store.Scan(filter, token, limit, [&](const foundry::v1::Puzzle& p) {
    out.puzzles.push_back(p);
    return true;
  });
  if (!next.ok()) return next.status();
  out.token = *next;
  return out;
}

inline std::vector<std::string> Ids(const std::vector<foundry::v1::Puzzle>& puzzles) {
  std::vector<std::string> ids;
  for (const auto& p : puzzles) ids.push_back(p.id());
  return ids;
}

// Pages through `filter` with `limit` per page; fails the test on an error
// or a non-terminating token sequence. Returns the visited ids in order.
inline std::vector<std::string> ScanPaged(Store& store, const PuzzleFilter& filter,
                                          uint64_t limit) {
  std::vector<std::string> ids;
  std::string token;
  for (int page = 0; page < 100000; ++page) {
    Result<ScanResult> r = ScanAll(store, filter, token, limit);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return ids;
    EXPECT_LE(r->puzzles.size(), limit);
    // A page before the last one is full; a token is only returned when
    // something follows, so no page is empty except a scan of nothing.
    if (!r->token.empty()) {
      EXPECT_EQ(r->puzzles.size(), limit);
    }
    if (page > 0) {
      EXPECT_FALSE(r->puzzles.empty());
    }
    for (const auto& p : r->puzzles) ids.push_back(p.id());
    if (r->token.empty()) return ids;
    token = r->token;
  }
  ADD_FAILURE() << "paging did not end";
  return ids;
}

// Raw RocksDB access to a closed store, with every column family of the
// schema (but `records` when `with_records` is false: a store in the
// layout of schema 4 or older), for tests that must reach under the Store
// interface.
class RawStore {
 public:
  // With RocksDB's default options (the plays merge operator aside).
  explicit RawStore(const std::string& dir, bool with_records = true)
      : RawStore(dir, rocksdb::DBOptions(), DefaultColumnFamilies(with_records)) {}
  // With the caller's options, e.g. the store's own (rocks_options.h).
  RawStore(const std::string& dir, const rocksdb::DBOptions& options,
           const std::vector<rocksdb::ColumnFamilyDescriptor>& cfs) {
    rocksdb::DB* db = nullptr;
    status_ = rocksdb::DB::Open(options, dir, cfs, &handles_, &db);
    db_.reset(db);
  }
  ~RawStore() {
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    if (db_) db_->Close().PermitUncheckedError();
  }
  const rocksdb::Status& status() const { return status_; }
  rocksdb::DB* db() { return db_.get(); }
  const std::vector<rocksdb::ColumnFamilyHandle*>& handles() const { return handles_; }
  rocksdb::ColumnFamilyHandle* cf(std::string_view name) {
    for (rocksdb::ColumnFamilyHandle* h : handles_) {
      if (h->GetName() == name) return h;
    }
    return nullptr;
  }

 private:
  static std::vector<rocksdb::ColumnFamilyDescriptor> DefaultColumnFamilies(bool with_records) {
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
    for (std::string_view name : keys::kAllCfs) {
      if (name == keys::kRecordsCf && !with_records) continue;
      rocksdb::ColumnFamilyOptions cf;
      if (name == keys::kPlaysCf) cf.merge_operator = NewPlayCountsMergeOperator();
      cfs.emplace_back(std::string(name), cf);
    }
    return cfs;
  }

  rocksdb::Status status_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  std::unique_ptr<rocksdb::DB> db_;
};

// Rewrites a closed store's records into the layout of schema 1 to 4, as a
// build of those versions wrote them: each record under its id in
// `puzzles`, no `records` column family. The caller sets schema_version.
inline void MoveRecordsBackToPuzzles(const std::string& dir) {
  RawStore raw(dir);
  ASSERT_TRUE(raw.status().ok()) << raw.status().ToString();
  rocksdb::WriteBatch wb;
  std::unique_ptr<rocksdb::Iterator> it(
      raw.db()->NewIterator(rocksdb::ReadOptions(), raw.cf(keys::kPuzzlesCf)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string record;
    ASSERT_TRUE(
        raw.db()->Get(rocksdb::ReadOptions(), raw.cf(keys::kRecordsCf), it->value(), &record).ok())
        << it->key().ToString();
    ASSERT_TRUE(wb.Put(raw.cf(keys::kPuzzlesCf), it->key(), record).ok());
  }
  ASSERT_TRUE(it->status().ok());
  it.reset();
  ASSERT_TRUE(raw.db()->Write(rocksdb::WriteOptions(), &wb).ok());
  ASSERT_TRUE(raw.db()->DropColumnFamily(raw.cf(keys::kRecordsCf)).ok());
}

// name -> size of every file in `dir` (recursively), to show that a failed
// Open wrote nothing.
inline std::map<std::string, uintmax_t> Listing(const std::filesystem::path& dir) {
  std::map<std::string, uintmax_t> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    files[e.path().lexically_relative(dir).string()] = e.is_regular_file() ? e.file_size() : 0;
  }
  return files;
}

}  // namespace foundry::storage::testing
