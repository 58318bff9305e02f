// RocksStore: the RocksDB implementation of Store. Private to storage/ (and
// its tests); everyone else uses Store::Open.
//
// Thread safety: every method may be called from any thread at once.
//  - Reads (GetPuzzle, ContainsPuzzles, Scan, LoadCampaigns, GetPlays) take
//    no lock of ours: RocksDB serves them from a consistent view while writes
//    go on. A Scan reads from one snapshot taken when it starts.
//  - Commit holds `commit_mu_` from its existence check to the end of its
//    write, so that concurrent Commits cannot both add the same id and the
//    per-family counters stay exact. PutCampaign and AddPlays are single
//    RocksDB writes and take no lock.
//  - PuzzleCounts takes `counts_mu_` only to copy the map. The counters are
//    exact once Commit returns; a reader that races a Commit may see its
//    puzzles a moment before the counters include them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "storage/play_counts_merge.h"
#include "storage/store.h"

namespace rocksdb {
class ColumnFamilyHandle;
class DB;
}  // namespace rocksdb

namespace foundry::storage {

// The file that marks a directory as being initialised by us: written before
// RocksDB creates anything, removed once schema_version is stored. A
// directory holding it may be (re)initialised even though it is not empty.
inline constexpr std::string_view kInitMarkerFile = "FOUNDRY-INIT";

class RocksStore final : public Store {
 public:
  // See Store::Open; this is it, with the concrete type for internal callers
  // and tests.
  static Result<std::unique_ptr<RocksStore>> Open(const std::string& dir,
                                                  const StoreOptions& options);

  // Closes the database (memtables stay in the WAL; nothing is lost).
  ~RocksStore() override;

  RocksStore(const RocksStore&) = delete;
  RocksStore& operator=(const RocksStore&) = delete;

  Result<foundry::v1::Puzzle> GetPuzzle(std::string_view id) override;
  Result<std::vector<bool>> ContainsPuzzles(const std::vector<std::string>& ids) override;
  // Beyond Store's contract: InvalidArgument for a puzzle without id or
  // family, with a \0 in family, level or campaign id, whose campaign_id is
  // not the batch's campaign id, or with a string field that is not valid
  // UTF-8 (protobuf would not read it back); AlreadyExists when an
  // id is already stored or appears twice, or a (campaign, index) member
  // entry already exists.
  Status Commit(const CommitBatch& batch) override;
  // InvalidArgument for an empty id, one with a \0, or a string field that
  // is not valid UTF-8.
  Status PutCampaign(const foundry::v1::Campaign& campaign) override;
  Result<std::vector<foundry::v1::Campaign>> LoadCampaigns() override;
  // InvalidArgument for a filter with a level but no family, or with a \0 in
  // a field, and for a page token of another filter.
  Result<std::string> Scan(const PuzzleFilter& filter, std::string_view page_token,
                           uint64_t limit,
                           const std::function<bool(const foundry::v1::Puzzle&)>& visit) override;
  std::map<std::string, uint64_t> PuzzleCounts() override;
  // RocksDB properties and statistics tickers; the level count iterates
  // by_family with fill_cache off, from one implicit snapshot.
  StoreStats Stats(bool count_levels) override;

  // Play counts (the `plays` column family). Not part of Store yet: a later
  // version will expose them; until then only tests call these.
  //
  // Adds `delta` to the counts of `id` with one RocksDB Merge (no read).
  // Does not check that the puzzle exists. InvalidArgument for an empty id.
  Status AddPlays(std::string_view id, const PlayCounts& delta);
  // The counts of `id`; zeros when it was never played.
  Result<PlayCounts> GetPlays(std::string_view id);

 private:
  // Positions in keys::kAllCfs.
  enum Cf : size_t {
    kDefault = 0,
    kPuzzles = 1,
    kByFamily = 2,
    kCampaigns = 3,
    kCampaignMembers = 4,
    kPlays = 5,
  };

  RocksStore(std::string dir, bool sync_writes, std::unique_ptr<rocksdb::DB> db,
             std::vector<rocksdb::ColumnFamilyHandle*> handles);

  // Fills counts_ from by_family. Called once by Open.
  Status LoadCounts();

  rocksdb::ColumnFamilyHandle* cf(Cf which) const { return handles_[which]; }

  const std::string dir_;
  const bool sync_writes_;
  std::unique_ptr<rocksdb::DB> db_;
  // Owned; destroyed before db_ is closed. Indexed by Cf.
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;

  std::mutex commit_mu_;  // serialises Commit
  std::mutex counts_mu_;  // guards counts_
  std::map<std::string, uint64_t> counts_;
};

}  // namespace foundry::storage
