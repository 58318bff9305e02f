#include "bench/fleet_sim_floor.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <memory>

#include <sys/resource.h>

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/puzzle.pb.h"
#include "bench/process_cpu.h"

namespace foundry::fleet_sim {
namespace {

void PutBigEndian(std::string& out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift));
}

// The store's key encodings (storage/keys.cc), repeated here because keys.h
// is private to storage/; only the byte counts and rough content matter.
constexpr uint64_t kSignBit = 1ULL << 63;
std::string ScoreKey(double score) {
  if (score == 0) score = 0;
  const uint64_t bits = std::bit_cast<uint64_t>(score);
  std::string key;
  PutBigEndian(key, (bits & kSignBit) ? ~bits : (bits | kSignBit));
  return key;
}
std::string TimeKey(int64_t unix_ms) {
  std::string key;
  PutBigEndian(key, static_cast<uint64_t>(unix_ms) ^ kSignBit);
  return key;
}

// Column families in the store's order (storage/keys.h kAllCfs) with their
// memtable sizes and Bloom filters (rocks_store_open.cc MakeCfDescriptors).
struct CfSpec {
  const char* name;
  size_t mib;
  bool bloom;
};
constexpr CfSpec kCfs[] = {{"default", 4, false},         {"puzzles", 64, true},
                           {"by_family", 4, false},      {"campaigns", 4, false},
                           {"campaign_members", 32, true}, {"plays", 16, true},
                           {"by_score", 32, false},       {"by_created", 32, false}};
enum Cf { kPuzzles = 1, kCampaigns = 3, kMembers = 4, kByScore = 6, kByCreated = 7 };

rocksdb::CompressionType Lz4IfAvailable() {
  for (rocksdb::CompressionType type : rocksdb::GetSupportedCompressions()) {
    if (type == rocksdb::kLZ4Compression) return type;
  }
  return rocksdb::kNoCompression;
}

struct Entry {
  int cf;
  std::string key;
  std::string value;
};

}  // namespace

FloorResult MeasureRocksFloor(
    const std::vector<std::vector<const foundry::v1::GeneratedPuzzle*>>& batches,
    const std::string& family, const std::string& params_json, uint64_t seed,
    const std::string& dir, bool key_order, std::string* error) {
  FloorResult r;
  rocksdb::DBOptions db;
  db.create_if_missing = true;
  db.create_missing_column_families = true;
  db.db_write_buffer_size = 256u << 20;
  db.max_total_wal_size = 256u << 20;
  db.bytes_per_sync = 1u << 20;
  db.statistics = rocksdb::CreateDBStatistics();
  db.statistics->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
  std::shared_ptr<rocksdb::Cache> cache = rocksdb::NewLRUCache(64u << 20);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const CfSpec& spec : kCfs) {
    rocksdb::ColumnFamilyOptions cf;
    cf.write_buffer_size = spec.mib << 20;
    cf.max_write_buffer_number = 3;
    cf.compression = Lz4IfAvailable();
    cf.compression_per_level.assign(7, cf.compression);
    cf.compression_per_level[0] = rocksdb::kNoCompression;
    cf.level_compaction_dynamic_level_bytes = true;
    rocksdb::BlockBasedTableOptions table;
    table.block_cache = cache;
    if (spec.bloom) {
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
      cf.memtable_prefix_bloom_size_ratio = 0.02;
      cf.memtable_whole_key_filtering = true;
    }
    cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    descriptors.emplace_back(spec.name, cf);
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db, dir, descriptors, &handles, &raw);
  if (!s.ok()) {
    *error = "floor: cannot open RocksDB in " + dir + ": " + s.ToString();
    return r;
  }
  std::unique_ptr<rocksdb::DB> owner(raw);

  // Every entry built before the clock starts: the floor is the writes.
  const std::string campaign_id = "c-0123456789abcdef";  // the coordinator's id shape
  const int64_t created = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
  foundry::v1::Campaign record;
  record.set_id(campaign_id);
  record.mutable_spec()->set_family(family);
  record.mutable_spec()->set_seed(seed);
  record.set_params_json(params_json);
  record.set_state(foundry::v1::CAMPAIGN_STATE_RUNNING);
  record.set_created_unix_ms(created);
  std::vector<std::vector<Entry>> writes;
  foundry::v1::Puzzle rec;
  for (const auto& batch : batches) {
    auto& w = writes.emplace_back();
    for (const auto* p : batch) {
      // The stored record as Coordinator::Settle builds it.
      rec.set_id(p->id());
      rec.set_family(family);
      rec.set_campaign_id(campaign_id);
      rec.set_seed(seed);
      rec.set_index(p->index());
      rec.set_params_json(params_json);
      *rec.mutable_difficulty() = p->difficulty();
      rec.set_puzzle_json(p->puzzle_json());
      rec.set_solution_json(p->solution_json());
      rec.set_created_unix_ms(created);
      const std::string& level = p->difficulty().level();
      w.push_back({kPuzzles, p->id(), rec.SerializeAsString()});
      std::string member = campaign_id + '\0';
      PutBigEndian(member, p->index());
      w.push_back({kMembers, std::move(member), p->id()});
      w.push_back({kByScore, family + '\0' + ScoreKey(p->difficulty().score()) + p->id(),
                   level + '\0' + TimeKey(created) + campaign_id});
      w.push_back({kByCreated, TimeKey(created) + p->id(), ""});
      ++r.puzzles;
    }
    record.mutable_counters()->set_stored(r.puzzles);
    record.set_next_index(batch.back()->index() + 1);
    w.push_back({kCampaigns, campaign_id, record.SerializeAsString()});
  }
  for (auto& w : writes) {
    for (const auto& e : w) r.bytes += e.key.size() + e.value.size();
    // The store's order (storage/key_ordered_batch.h), sorted here before
    // the clock starts rather than through KeyOrderedBatch in the timed
    // loop: the floor is the writes alone, as for the entries' building.
    if (key_order) {
      std::sort(w.begin(), w.end(), [](const Entry& a, const Entry& b) {
        return a.cf != b.cf ? a.cf < b.cf : a.key < b.key;
      });
    }
  }
  r.batches = writes.size();

  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = foundry::bench::ProcessCpuSeconds();
  rocksdb::WriteOptions wo;  // WAL on, no fsync: the store's defaults
  for (const auto& w : writes) {
    rocksdb::WriteBatch wb;
    for (const auto& e : w) wb.Put(handles[e.cf], e.key, e.value);
    s = owner->Write(wo, &wb);
    if (!s.ok()) break;
  }
  const double cpu1 = foundry::bench::ProcessCpuSeconds();
  if (s.ok()) {
    rocksdb::FlushOptions fo;
    fo.wait = true;
    s = owner->Flush(fo, handles);
  }
  const double cpu2 = foundry::bench::ProcessCpuSeconds();
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.write_cpu_s = cpu1 - cpu0;
  r.flush_cpu_s = cpu2 - cpu1;
  if (!s.ok()) *error = "floor: RocksDB write failed: " + s.ToString();
  for (auto* h : handles) owner->DestroyColumnFamilyHandle(h);
  return r;
}

}  // namespace foundry::fleet_sim
