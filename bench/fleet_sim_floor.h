// fleet_sim's RocksDB floor: what the store's writes alone cost per puzzle.
//
// A bare RocksDB opened with the store's own options (storage/rocks_options.h:
// LZ4, memtable sizes, Bloom filters; WAL on, no fsync) receives exactly the
// entries a campaign's commits write — per puzzle its record (records) and
// id (puzzles), campaign_members, by_score and by_created entries, per job
// one campaign record (the store's Commit,
// storage/rocks_store*.cc) — built from the captured puzzles, one WriteBatch
// per job. No existence checks, no dedup, no protobuf parse-back: the least
// any store of these puzzles could spend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "foundry/v1/worker.pb.h"

namespace foundry::fleet_sim {

struct FloorResult {
  uint64_t puzzles = 0;
  uint64_t batches = 0;
  uint64_t bytes = 0;      // keys and values written
  double write_cpu_s = 0;  // process CPU over the write loop
  double flush_cpu_s = 0;  // process CPU over the final Flush (background threads included)
  double wall_s = 0;       // write loop and flush
  double us_per_puzzle() const { return puzzles ? (write_cpu_s + flush_cpu_s) * 1e6 / puzzles : 0; }
};

// Writes `batches` (one per job, as StoredBatches returns them) into a new
// store in `dir` (created; left for the caller to remove). `family` and
// `params_json` are the campaign's. With `key_order`, each batch's entries
// go in sorted by column family and key, as the store's commits write them
// (storage/key_ordered_batch.h); without, in candidate order, as a plain
// WriteBatch of the puzzles would (db_bench's fillrandom). Empty `error` on
// success.
FloorResult MeasureRocksFloor(
    const std::vector<std::vector<const foundry::v1::GeneratedPuzzle*>>& batches,
    const std::string& family, const std::string& params_json, uint64_t seed,
    const std::string& dir, bool key_order, std::string* error);

}  // namespace foundry::fleet_sim
