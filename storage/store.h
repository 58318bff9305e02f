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

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/status.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/puzzle.pb.h"
#include "foundry/v1/store.pb.h"
#include "storage/backup.h"
#include "storage/play_counts_merge.h"
#include "storage/player_store.h"
#include "storage/store_stats.h"

namespace foundry::storage {

struct StoreOptions {
  // Create an empty store when `dir` holds none. Default true.
  bool create_if_missing = true;
  // fsync the write-ahead log on every commit. Default false: a commit
  // survives a process crash (the WAL is written before Commit returns) but
  // the last commits may be lost if the machine loses power.
  bool sync_writes = false;
  // The write-ahead log files together stay near this size: beyond it
  // RocksDB flushes the column families whose writes the oldest log holds,
  // so that it can be deleted. Bounds the disk the logs take and the replay
  // at the next open. Default 256 MiB (without a bound, the rarely written
  // column families keep every log alive; docs/scale.md). 0 leaves
  // RocksDB's own bound (4x all memtables).
  uint64_t max_wal_bytes = 256u << 20;
  // The block cache shared by every column family: decompressed blocks of
  // records, and the index and filter blocks, so that the store's memory
  // beyond its memtables is bounded by it. Default 64 MiB: 512 MiB did not
  // speed up GetPuzzle on a store of 1,000,000 puzzles (docs/benchmarks.md),
  // but a coordinator with memory to spare and hot reads larger than 64 MiB
  // may want more (foundry-coordinator --block-cache-mb).
  uint64_t block_cache_bytes = 64u << 20;
  // RocksDB's row cache: whole records by key, consulted by point reads
  // before any table file (GetPuzzle, GetPuzzles). 0: none.
  uint64_t row_cache_bytes = 0;
  // Puzzles are committed (Commit, CommitNew) only while the store's
  // filesystem has at least this much free space; below it they are refused
  // with ResourceExhausted, so that the disk never fills under RocksDB (whose
  // flushes and compactions need room) and small writes (plays, campaign
  // records) still fit. Default 256 MiB; 0 turns the check off.
  uint64_t min_free_bytes = 256u << 20;
};

// Which puzzles a Scan or Sample visits; empty fields match everything.
struct PuzzleFilter {
  PuzzleFilter() = default;
  PuzzleFilter(std::string family_, std::string level_, std::string campaign_id_)
      : family(std::move(family_)),
        level(std::move(level_)),
        campaign_id(std::move(campaign_id_)) {}

  std::string family;
  std::string level;  // needs family
  std::string campaign_id;
  // Inclusive difficulty score range: the generator's score, or the
  // observed one (generator estimate updated by plays) with use_observed.
  std::optional<std::pair<double, double>> score;
  bool use_observed = false;
  int64_t created_after_unix_ms = 0;   // >= this; 0 = unbounded
  int64_t created_before_unix_ms = 0;  // <  this; 0 = unbounded
};

// One atomic write: new puzzles plus the campaign record after them.
struct CommitBatch {
  // Puzzles new to the store; each id must not be stored yet.
  std::vector<foundry::v1::Puzzle> puzzles;
  // The campaign record to store with them (replaces the previous one).
  foundry::v1::Campaign campaign;
};

// What CommitNew stored of a batch.
struct NewPuzzles {
  uint64_t added = 0;       // stored now
  uint64_t duplicates = 0;  // skipped: already stored, or repeated earlier in the batch
};

// A stored puzzle as a reader that passes it on gets it: the record's wire
// bytes (a foundry.v1.Puzzle as committed, without plays and observed) and
// the puzzle's recorded plays.
struct PuzzleRecord {
  std::string bytes;
  PlayCounts plays;
};

class Store {
 public:
  // The on-disk schema version this build reads and writes.
  static constexpr int kSchemaVersion = 5;

  // Opens (or creates) the store in `dir`. A store of schema version 1 to 3
  // is upgraded in place (1: the by_score and by_created indexes are added
  // and filled from the puzzles; 2: the by_family index is emptied; 3: the
  // by_draw sampling index and the group counters are built from by_score;
  // an interrupted upgrade is redone on the next Open). A new store is created
  // only in an absent or empty directory (or one holding the FOUNDRY-INIT marker of an
  // interrupted creation). Errors: InvalidArgument when `dir` is missing and
  // !create_if_missing; FailedPrecondition when the store was written with
  // another schema version, or `dir` holds something that is not a store
  // (nothing is changed on disk); DataLoss when RocksDB reports corruption;
  // Unavailable when another process, or this one, has the store open.
  static Result<std::unique_ptr<Store>> Open(const std::string& dir, const StoreOptions& options);

  virtual ~Store() = default;

  // The puzzle with `id`, or NotFound. Every read of a puzzle (here, Scan,
  // Sample) fills its `plays` and `observed` fields from the recorded plays;
  // observed.level is left empty (levels are the families' business).
  virtual Result<foundry::v1::Puzzle> GetPuzzle(std::string_view id) = 0;

  // GetPuzzle without the play fields (plays, observed left empty): the
  // record as generated, or NotFound. One lookup fewer, for callers that
  // only judge an answer against the puzzle.
  virtual Result<foundry::v1::Puzzle> GetPuzzleWithoutPlays(std::string_view id) = 0;

  // GetPuzzle without parsing the record: its stored bytes and its plays, or
  // NotFound. For servers that send the record on (PuzzleStore.GetPuzzle):
  // parsing ~1 KB into a message only to serialise it again was a sixth of
  // the read's own CPU (docs/scale.md, "Reads").
  virtual Result<PuzzleRecord> GetPuzzleRecord(std::string_view id) = 0;

  // The puzzles with `ids`, in their order, from one batched lookup: an
  // empty optional where an id is not stored. Plays are filled as GetPuzzle
  // does.
  virtual Result<std::vector<std::optional<foundry::v1::Puzzle>>> GetPuzzles(
      const std::vector<std::string>& ids) = 0;

  // For each id, whether a puzzle with that id is stored. One batched lookup.
  virtual Result<std::vector<bool>> ContainsPuzzles(const std::vector<std::string>& ids) = 0;

  // Writes the batch atomically (the puzzles, their index entries, the
  // campaign record). On error nothing is written.
  // AlreadyExists when an id is already stored or repeated in the batch, or
  // a (campaign, index) member exists; InvalidArgument when a puzzle's
  // campaign_id differs from the batch's campaign, a family/level/campaign
  // id holds a NUL byte, or a record would not read back (invalid UTF-8).
  virtual Status Commit(const CommitBatch& batch) = 0;

  // Commit with deduplication inside the one write, for campaigns: puzzles
  // already stored or repeated earlier in the batch are skipped instead of
  // refused; of the rest, the first `max_new` in batch order are stored and
  // the batch's later puzzles are ignored. batch.campaign must carry the
  // campaign's id (its member keys are looked up); `finish` is called once, before
  // the write, with what will be stored, to complete batch.campaign (its
  // counters, cursor and state), which is written with them. One lookup per
  // puzzle under the commit lock, so no other commit can store one of the
  // ids in between (callers need no ContainsPuzzles and no lock of their
  // own). Errors as Commit's; on an error nothing is written (`batch` is only
  // read, so the caller can offer it again).
  virtual Result<NewPuzzles> CommitNew(
      const CommitBatch& batch, uint64_t max_new,
      const std::function<void(const NewPuzzles&, foundry::v1::Campaign&)>& finish) = 0;

  // Ok while puzzles can be committed. ResourceExhausted, naming the store
  // and the cause, while its filesystem has less free space than
  // StoreOptions::min_free_bytes, or after a write found the disk full and
  // until RocksDB has recovered by itself (once the disk has room for its
  // memtables again); commits are refused meanwhile with this error, nothing
  // stored is lost, and reads go on. One statfs call; no other I/O.
  virtual Status WriteState() = 0;

  // Undoes a campaign's commits from candidate `from_index` on, in one
  // atomic write: every puzzle the campaign stored at an index >= from_index
  // is deleted with its index entries (its recorded plays stay, and count
  // again if the puzzle is stored again), and `campaign` replaces the
  // campaign record. Used to repair what a worker caught lying had
  // committed. Returns how many puzzles were deleted.
  virtual Result<uint64_t> RollbackCampaign(const foundry::v1::Campaign& campaign,
                                            uint64_t from_index) = 0;

  // Stores (replaces) one campaign record.
  virtual Status PutCampaign(const foundry::v1::Campaign& campaign) = 0;

  // Every stored campaign, in id order.
  virtual Result<std::vector<foundry::v1::Campaign>> LoadCampaigns() = 0;

  // Visits the puzzles matching `filter` in a stable order (by id with no
  // filter; by generator score then id within a family; by candidate index
  // within a campaign; by creation time then id for a time range without a
  // family), starting after
  // `page_token` (empty: from the start), until `limit` puzzles were visited
  // (0: no limit) or `visit` returns false. Returns the token to continue
  // after the last visited puzzle, or "" when no puzzle follows it.
  // InvalidArgument for a token this store did not produce or for a level
  // without a family. `visit` runs with no store lock held; it may call the
  // store. The whole scan reads one snapshot.
  virtual Result<std::string> Scan(
      const PuzzleFilter& filter, std::string_view page_token, uint64_t limit,
      const std::function<bool(const foundry::v1::Puzzle&)>& visit) = 0;

  // Up to `n` distinct puzzles matching `filter` whose ids are not in
  // `exclude`, uniformly without replacement from that set (fewer only when
  // fewer match). `seed` != 0 makes the draw repeatable on the same store
  // state. Served from point lookups in a sampling index (no per-puzzle
  // state in memory) plus one MultiGet of the records per round; never
  // waits for a Commit's write.
  virtual Result<std::vector<foundry::v1::Puzzle>> Sample(
      const PuzzleFilter& filter, size_t n, const std::unordered_set<std::string>& exclude,
      uint64_t seed) = 0;

  // Adds one play of puzzle `id` (solved or not, taking `seconds`) with a
  // RocksDB Merge (the counts are never read and rewritten, so concurrent
  // plays are all counted), then reads back the puzzle's figures. NotFound
  // for an unknown puzzle; InvalidArgument for seconds outside 0..86400.
  virtual Result<foundry::v1::RecordPlayResponse> RecordPlay(std::string_view id, bool solved,
                                                             double seconds) = 0;

  // Plays recorded through this object since Open.
  virtual uint64_t PlaysRecorded() = 0;

  // ---- players (docs/players.md; rocks_store_players.cc, rocks_store_next_puzzle.cc) ----

  // Records a play that has a player, a judged answer or a play_id, in one
  // atomic write: the puzzle's play counts, and as they apply the puzzle's
  // judged counts and rating, the player's figures, the player's attempt,
  // the play_id's result, the play's record (a play with a player;
  // ScanPlays) and the puzzle's best solution (a scored answer above the
  // best so far). Ratings change (through model.rate) only on a judged play
  // of the player's first attempt at the puzzle, and unless
  // model.rate_unserved only when the puzzle was served to the player
  // (NextPuzzle, or the puzzle of the day of one of play.daily_days);
  // otherwise the response says opened_by_id. A play_id
  // already recorded returns its first result with replayed set and
  // records nothing; with another puzzle, player, answer or claim it is
  // AlreadyExists and records nothing. NotFound for an unknown puzzle;
  // InvalidArgument for seconds outside 0..86400. Plays of this kind are
  // serialised by one lock (plays without these fields stay lock-free).
  virtual Result<foundry::v1::RecordPlayResponse> RecordPlayerPlay(const PlayerPlay& play,
                                                                   const RatingModel& model) {
    (void)play;
    (void)model;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // The player's figures in `family`, or nullopt for a player who has no
  // judged play of it.
  virtual Result<std::optional<PlayerFigures>> GetPlayer(std::string_view player_id,
                                                         std::string_view family) {
    (void)player_id;
    (void)family;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // A puzzle of `family` that `player_id` was never served and never
  // played, drawn uniformly at random among the model.next_nearest whose
  // rating (its stored one, or model's initial rating for a puzzle never
  // judged) is nearest `target` (1: the nearest; puzzles of one rating in
  // id order, else in a random order); with model.next_new_window > 0, a
  // draw among never-judged puzzles within that window comes first when a
  // bounded look finds any. It is remembered as served before it is
  // returned. ResourceExhausted naming the family when the
  // player has had every puzzle of it. Costs a few seeks plus one point
  // lookup per puzzle skipped (already had, or re-rated), never a scan of
  // the family.
  virtual Result<foundry::v1::Puzzle> NextPuzzle(std::string_view player_id,
                                                 std::string_view family, double target,
                                                 const RatingModel& model) {
    (void)player_id;
    (void)family;
    (void)target;
    (void)model;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // Visits the recorded plays that have a player (RecordPlayerPlay with a
  // player_id), of `player_id` only when it is not empty and of `family`
  // only when it is not empty, player by player (in byte order) and in
  // recording order within a player, from one snapshot, until `limit` plays
  // were visited (0: no limit) or `visit` returns false. best_now is set on
  // the play whose answer is its puzzle's best solution. Costs a walk of
  // the play records (of the player's prefix when one is given) plus one
  // point lookup per scored play.
  virtual Status ScanPlays(std::string_view player_id, std::string_view family, uint64_t limit,
                           const std::function<bool(const foundry::v1::PlayRecord&)>& visit) {
    (void)player_id;
    (void)family;
    (void)limit;
    (void)visit;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // The best scored answer recorded for puzzle `id` (families that score
  // answers), or nullopt when none was.
  virtual Result<std::optional<foundry::v1::BestSolution>> GetBestSolution(std::string_view id) {
    (void)id;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // The grade mapping fitted for `family` (PutGradeMappings), or nullopt
  // when none was: the caller's default applies.
  virtual Result<std::optional<FittedGradeMapping>> GetGradeMapping(std::string_view family) {
    (void)family;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // Stores (replaces) the fitted mappings of the families in `mappings`, in
  // one atomic write. From then on RecordPlayerPlay and NextPuzzle place
  // never-judged puzzles of those families with them. InvalidArgument for
  // a per_score below 0 or a figure that is not finite, a family with a NUL.
  virtual Status PutGradeMappings(const std::map<std::string, FittedGradeMapping>& mappings) {
    (void)mappings;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // Calls `visit` for every stored puzzle that has a rating record (was
  // judged) and at least `min_judged_plays` judged plays, family by family,
  // from one snapshot. Costs a walk of the rating index plus one point
  // lookup per rated puzzle and one record read per puzzle visited.
  virtual Status ForEachRatedPuzzle(uint64_t min_judged_plays,
                                    const std::function<void(const RatedPuzzle&)>& visit) {
    (void)min_judged_plays;
    (void)visit;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // The puzzle of the day of `family` on `date` (an opaque key, "YYYY-MM-DD"
  // for the service): drawn uniformly from the family with a seed derived
  // from (family, date) alone, and remembered, so every later call returns
  // the same puzzle whatever the store gained since (it is drawn again, the
  // same way, only if that puzzle was rolled back). NotFound naming the
  // family when it has no puzzle.
  virtual Result<foundry::v1::Puzzle> DailyPuzzle(std::string_view family, std::string_view date) {
    (void)family;
    (void)date;
    return Status::FailedPrecondition("this store does not keep players");
  }

  // Stored puzzles per family (exact; kept in memory per group).
  virtual std::map<std::string, uint64_t> PuzzleCounts() = 0;

  // Stored puzzles per (family, level) (exact; kept in memory per group).
  virtual std::map<std::pair<std::string, std::string>, uint64_t> LevelCounts() = 0;

  // Engine figures for metrics (see StoreStats); cheap (property reads).
  // With `count_levels`, also gives the stored puzzles per (family, level)
  // (from counters in memory: O(families x levels)). A store that has no
  // such figures returns zeros.
  virtual StoreStats Stats(bool count_levels) {
    (void)count_levels;
    return {};
  }

  // Starts writing what is held in memory to the store's files in the
  // background and returns at once. For a writer whose writes are about to
  // end (the last jobs of `foundry run`): the close then has less left to
  // write while nothing else runs. Nothing a reader sees changes; a store
  // with nothing to start does nothing.
  virtual void StartFlush() {}

  // Waits until the store owes no compaction (none pending, none running),
  // for at most `limit` and only while `stop` stays false. Compactions run
  // at low CPU priority and fall behind a bulk write that keeps every core
  // busy; a store left owing them makes its next reader pay for them
  // (docs/scale.md, "A store handed over settled"). Returns whether the
  // store settled; what is left is done at its next open. A store without
  // compactions settles at once.
  virtual bool SettleCompactions(std::chrono::milliseconds limit, const std::atomic<bool>& stop) {
    (void)limit;
    (void)stop;
    return true;
  }

  // Takes a consistent backup of everything stored (every column family)
  // into `backup_dir` while reads and commits go on, sharing the table files
  // earlier backups there already hold (storage/backup.h). Returns the new
  // backup. FailedPrecondition when `backup_dir` is neither empty nor a
  // backup directory, or lies inside the store; ResourceExhausted when its
  // disk is full (the partial backup is discarded; earlier ones stay good).
  // A store that cannot take backups returns FailedPrecondition.
  virtual Result<BackupSummary> Backup(const std::string& backup_dir,
                                       const BackupOptions& options) {
    (void)backup_dir;
    (void)options;
    return Status::FailedPrecondition("this store cannot take backups");
  }
};

}  // namespace foundry::storage
