// The puzzle store: puzzles, their indexes and campaign state in RocksDB.
//
// Open() returns a Store over a directory; the RocksDB code stays private to
// storage/. Key layouts live in storage/keys.h. One Commit() is one RocksDB
// WriteBatch: either all of a job's puzzles, index entries and the campaign's
// new cursor are stored, or none are.
//
// Thread safety: every method may be called from any thread at once. Reads
// never wait for writes. Deduplication is the caller's: a caller that checks
// ContainsPuzzles() and then commits must serialise those steps itself.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/puzzle.pb.h"
#include "storage/store_stats.h"

namespace foundry::storage {

struct StoreOptions {
  // Create an empty store when `dir` holds none. Default true.
  bool create_if_missing = true;
  // fsync the write-ahead log on every commit. Default false: a commit
  // survives a process crash (the WAL is written before Commit returns) but
  // the last commits may be lost if the machine loses power.
  bool sync_writes = false;
};

// Which puzzles a Scan visits; empty fields match everything.
struct PuzzleFilter {
  std::string family;
  std::string level;  // needs family
  std::string campaign_id;
};

// One atomic write: new puzzles plus the campaign record after them.
struct CommitBatch {
  // Puzzles new to the store; each id must not be stored yet.
  std::vector<foundry::v1::Puzzle> puzzles;
  // The campaign record to store with them (replaces the previous one).
  foundry::v1::Campaign campaign;
};

class Store {
 public:
  // The on-disk schema version this build reads and writes.
  static constexpr int kSchemaVersion = 1;

  // Opens (or creates) the store in `dir`. A new store is created only in an
  // absent or empty directory (or one holding the FOUNDRY-INIT marker of an
  // interrupted creation). Errors: InvalidArgument when `dir` is missing and
  // !create_if_missing; FailedPrecondition when the store was written with
  // another schema version, or `dir` holds something that is not a store
  // (nothing is changed on disk); DataLoss when RocksDB reports corruption;
  // Unavailable when another process, or this one, has the store open.
  static Result<std::unique_ptr<Store>> Open(const std::string& dir, const StoreOptions& options);

  virtual ~Store() = default;

  // The puzzle with `id`, or NotFound.
  virtual Result<foundry::v1::Puzzle> GetPuzzle(std::string_view id) = 0;

  // For each id, whether a puzzle with that id is stored. One batched lookup.
  virtual Result<std::vector<bool>> ContainsPuzzles(const std::vector<std::string>& ids) = 0;

  // Writes the batch atomically (puzzles, by_family and campaign_members
  // entries, the campaign record). On error nothing is written.
  // AlreadyExists when an id is already stored or repeated in the batch, or
  // a (campaign, index) member exists; InvalidArgument when a puzzle's
  // campaign_id differs from the batch's campaign, a family/level/campaign
  // id holds a NUL byte, or a record would not read back (invalid UTF-8).
  virtual Status Commit(const CommitBatch& batch) = 0;

  // Stores (replaces) one campaign record.
  virtual Status PutCampaign(const foundry::v1::Campaign& campaign) = 0;

  // Every stored campaign, in id order.
  virtual Result<std::vector<foundry::v1::Campaign>> LoadCampaigns() = 0;

  // Visits the puzzles matching `filter` in a stable order (by id with no
  // filter; by level then id within a family; by candidate index within a
  // campaign), starting after
  // `page_token` (empty: from the start), until `limit` puzzles were visited
  // (0: no limit) or `visit` returns false. Returns the token to continue
  // after the last visited puzzle, or "" when no puzzle follows it.
  // InvalidArgument for a token this store did not produce or for a level
  // without a family. `visit` runs with no store lock held; it may call the
  // store. The whole scan reads one snapshot.
  virtual Result<std::string> Scan(const PuzzleFilter& filter, std::string_view page_token,
                                   uint64_t limit,
                                   const std::function<bool(const foundry::v1::Puzzle&)>& visit) = 0;

  // Stored puzzles per family (kept in memory, exact).
  virtual std::map<std::string, uint64_t> PuzzleCounts() = 0;

  // Engine figures for metrics (see StoreStats); cheap (property reads).
  // With `count_levels`, also counts the stored puzzles per (family, level)
  // by reading the by_family index (keys only): O(puzzles stored), so call
  // it rarely on a large store. A store that has no such figures returns
  // zeros.
  virtual StoreStats Stats(bool count_levels) {
    (void)count_levels;
    return {};
  }
};

}  // namespace foundry::storage
