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
//    RocksDB writes and take no lock. RecordPlayerPlay and NextPuzzle hold
//    `players_mu_` from their reads to their one write (players' keys).
//  - The draw groups' counters (PuzzleCounts, LevelCounts, Sample) have
//    their own reader-writer lock, held by Commit only to store a batch's
//    new counters. They are exact once Commit returns; a reader that races a
//    Commit may see its puzzles in RocksDB a moment before the counters
//    include them, never after.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/draw_groups.h"
#include "storage/play_counts_merge.h"
#include "storage/record_table.h"
#include "storage/store.h"
#include "storage/write_stop.h"

namespace rocksdb {
class ColumnFamilyHandle;
class DB;
class PinnableSlice;
class Snapshot;
class WriteBatch;
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
  Result<foundry::v1::Puzzle> GetPuzzleWithoutPlays(std::string_view id) override {
    return ReadRecord(id);
  }
  Result<PuzzleRecord> GetPuzzleRecord(std::string_view id) override;
  Result<std::vector<std::optional<foundry::v1::Puzzle>>> GetPuzzles(
      const std::vector<std::string>& ids) override;
  Result<std::vector<bool>> ContainsPuzzles(const std::vector<std::string>& ids) override;
  // Beyond Store's contract: InvalidArgument for a puzzle without id or
  // family, with a \0 in family, level or campaign id, whose campaign_id is
  // not the batch's campaign id, or with a string field that is not valid
  // UTF-8 (protobuf would not read it back); AlreadyExists when an
  // id is already stored or appears twice, or a (campaign, index) member
  // entry already exists.
  Status Commit(const CommitBatch& batch) override;
  // Errors as Commit's, except that stored and repeated ids are skipped.
  Result<NewPuzzles> CommitNew(
      const CommitBatch& batch, uint64_t max_new,
      const std::function<void(const NewPuzzles&, foundry::v1::Campaign&)>& finish) override;
  Status WriteState() override;
  // InvalidArgument for an empty id, one with a \0, or a string field that
  // is not valid UTF-8.
  Status PutCampaign(const foundry::v1::Campaign& campaign) override;
  // Holds commit_mu_ like Commit. DataLoss for a member whose record is gone.
  Result<uint64_t> RollbackCampaign(const foundry::v1::Campaign& campaign,
                                    uint64_t from_index) override;
  Result<std::vector<foundry::v1::Campaign>> LoadCampaigns() override;
  // InvalidArgument for a filter with a level but no family, or with a \0 in
  // a field, and for a page token of another filter.
  Result<std::string> Scan(const PuzzleFilter& filter, std::string_view page_token, uint64_t limit,
                           const std::function<bool(const foundry::v1::Puzzle&)>& visit) override;
  Result<std::vector<foundry::v1::Puzzle>> Sample(const PuzzleFilter& filter, size_t n,
                                                  const std::unordered_set<std::string>& exclude,
                                                  uint64_t seed) override;
  Result<foundry::v1::RecordPlayResponse> RecordPlay(std::string_view id, bool solved,
                                                     double seconds) override;
  uint64_t PlaysRecorded() override { return plays_recorded_.load(std::memory_order_relaxed); }
  // Players (rocks_store_players.cc; NextPuzzle in rocks_store_next_puzzle.cc):
  // keys in player_keys.h.
  Result<foundry::v1::RecordPlayResponse> RecordPlayerPlay(const PlayerPlay& play,
                                                           const RatingModel& model) override;
  Result<std::optional<PlayerFigures>> GetPlayer(std::string_view player_id,
                                                 std::string_view family) override;
  Result<foundry::v1::Puzzle> NextPuzzle(std::string_view player_id, std::string_view family,
                                         double target, const RatingModel& model) override;
  // Play records and best solutions (rocks_store_play_log.cc).
  Status ScanPlays(std::string_view player_id, std::string_view family, uint64_t limit,
                   const std::function<bool(const foundry::v1::PlayRecord&)>& visit) override;
  Result<std::optional<foundry::v1::BestSolution>> GetBestSolution(std::string_view id) override;
  // Grade mappings and rated puzzles (rocks_store_grades.cc).
  Result<std::optional<FittedGradeMapping>> GetGradeMapping(std::string_view family) override;
  Status PutGradeMappings(const std::map<std::string, FittedGradeMapping>& mappings) override;
  Status ForEachRatedPuzzle(uint64_t min_judged_plays,
                            const std::function<void(const RatedPuzzle&)>& visit) override;
  // The puzzle of the day (rocks_store_daily.cc).
  Result<foundry::v1::Puzzle> DailyPuzzle(std::string_view family, std::string_view date) override;
  std::map<std::string, uint64_t> PuzzleCounts() override;
  std::map<std::pair<std::string, std::string>, uint64_t> LevelCounts() override;
  // RocksDB properties and statistics tickers; level counts from the draw groups.
  StoreStats Stats(bool count_levels) override;
  void StartFlush() override;
  bool SettleCompactions(std::chrono::milliseconds limit, const std::atomic<bool>& stop) override;
  // A BackupEngine backup of the live files and logs (rocks_store_backup.cc).
  Result<BackupSummary> Backup(const std::string& backup_dir,
                               const BackupOptions& options) override;

  // Raw play counts (the `plays` column family), for tests and tools.
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
    kByFamily = 2,  // retired in schema 3: kept, empty
    kCampaigns = 3,
    kCampaignMembers = 4,
    kPlays = 5,
    kByScore = 6,
    kByCreated = 7,
    kByDraw = 8,
    kRecords = 9,
  };

  RocksStore(std::string dir, const StoreOptions& options, std::shared_ptr<WriteStop> write_stop,
             std::unique_ptr<rocksdb::DB> db, std::vector<rocksdb::ColumnFamilyHandle*> handles);

  // The index a Scan with `filter` walks, and its key range there.
  struct ScanPlan;
  ScanPlan PlanScan(const PuzzleFilter& filter) const;
  // InvalidArgument for a filter no scan can serve (NUL bytes, a level
  // without family, an empty score or time range).
  static Status CheckFilter(const PuzzleFilter& filter);

  // Reads `key` of the default column family into `value`; false when absent.
  Result<bool> GetMeta(const std::string& key, std::string* value);
  // The grade mapping of `family`: its fitted one, else model.grade. Read
  // from the store once per family, then from `grade_maps_`.
  // REQUIRES: players_mu_ held.
  Result<GradeMapping> MappingOfLocked(std::string_view family, const RatingModel& model);
  // Adds to `wb` what a scored play changes: the puzzle's best solution when
  // the answer beats it; fills `resp`'s answer_score, best_solution and
  // new_best. `seq` is the play's record (0: none). REQUIRES: players_mu_.
  Status KeepBestLocked(const PlayerPlay& play, uint64_t seq, int64_t now_ms,
                        rocksdb::WriteBatch& wb, foundry::v1::RecordPlayResponse& resp);
  // The next play seq (the stored counter + 1, read once). REQUIRES: players_mu_.
  Result<uint64_t> NextPlaySeqLocked();
  // Adds `play`'s record (seq) and the seq counter to `wb`, from the
  // finished response. REQUIRES: players_mu_ held.
  Status AddPlayRecordLocked(const PlayerPlay& play, std::string_view family, uint64_t seq,
                             int64_t now_ms, const foundry::v1::RecordPlayResponse& resp,
                             rocksdb::WriteBatch& wb);

  // Reads the draw groups' counters (O(groups)). Called once by Open.
  Status LoadDrawGroups();
  // Adds the schema 2 indexes to a schema 1 store and records version 2.
  Status UpgradeFromVersion1();
  // Empties the retired by_family index and records version 3.
  Status UpgradeFromVersion2();
  // Builds by_draw, the draw counters and the by_created seqs from by_score
  // and records version 4 (rocks_store_migrate.cc).
  Status UpgradeFromVersion3();
  // Schema 4 to 5: moves the records from `puzzles` into `records`, keyed
  // by seq. `version` is the stored one: 4 starts the move, 5 finishes a
  // move an earlier Open began (nothing when none is pending)
  // (rocks_store_migrate.cc).
  Status UpgradeToVersion5(int version);
  // The stored record of `id` without play figures; NotFound, DataLoss.
  Result<foundry::v1::Puzzle> ReadRecord(std::string_view id);
  // The stored bytes of `id`'s record into `value`; NotFound.
  Status ReadRecordBytes(std::string_view id, rocksdb::PinnableSlice& value);
  // Fills `plays` and `observed` of each puzzle from the plays column family
  // (one MultiGet), reading at `snapshot` (nullptr: latest).
  Status FillPlays(const std::vector<foundry::v1::Puzzle*>& puzzles,
                   const rocksdb::Snapshot* snapshot);

  // What one MultiGet found of a batch's ids and (campaign, index) member
  // keys. REQUIRES: commit_mu_ held (rocks_store_commit.cc).
  struct Lookup {
    std::vector<std::string> member_keys;
    std::vector<bool> id_stored;
    std::vector<bool> member_taken;
  };
  Result<Lookup> LookUpLocked(const std::vector<foundry::v1::Puzzle>& puzzles,
                              const std::string& campaign_id);
  // Validates, encodes and writes puzzles (with their member keys) and the
  // campaign record in one WriteBatch. REQUIRES: commit_mu_ held.
  Status WriteLocked(const std::vector<const foundry::v1::Puzzle*>& puzzles,
                     const std::vector<std::string>& member_keys,
                     const foundry::v1::Campaign& campaign);
  static std::string ByScoreKeyOf(const foundry::v1::Puzzle& p);
  static std::string CatalogValueOf(const foundry::v1::Puzzle& p);

  rocksdb::ColumnFamilyHandle* cf(Cf which) const { return handles_[which]; }

  const std::string dir_;
  const bool sync_writes_;
  const uint64_t min_free_bytes_;
  // Registered with RocksDB as a listener; outlives db_.
  std::shared_ptr<WriteStop> write_stop_;
  std::unique_ptr<rocksdb::DB> db_;
  // Owned; destroyed before db_ is closed. Indexed by Cf.
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  // The puzzle records by id (the puzzles and records column families);
  // its adds are serialised by commit_mu_.
  RecordTable records_;

  std::mutex commit_mu_;  // serialises Commit
  DrawGroups groups_;
  std::atomic<uint64_t> plays_recorded_{0};
  // Serialises RecordPlayerPlay, NextPuzzle, PutGradeMappings and
  // DailyPuzzle: each reads records (a play_id, a rating, an attempt, a
  // mapping, a day's pick) and writes what depends on them.
  std::mutex players_mu_;
  // The last play seq written (players_mu_); read from the store once.
  uint64_t last_play_seq_ = 0;
  bool play_seq_loaded_ = false;
  // The fitted grade mapping of each family looked up so far (none: not
  // fitted), so that a NextPuzzle or a first play does not search the
  // default column family's levels for it (docs/players.md, "The grade
  // mapping kept in memory"). Only PutGradeMappings writes mappings, and it
  // updates this too. players_mu_.
  std::map<std::string, std::optional<FittedGradeMapping>, std::less<>> grade_maps_;
};

}  // namespace foundry::storage
