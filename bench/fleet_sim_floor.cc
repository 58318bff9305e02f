#include "bench/fleet_sim_floor.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <memory>

#include <sys/resource.h>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/puzzle.pb.h"
#include "bench/process_cpu.h"
#include "storage/rocks_options.h"

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

// The column families the floor writes, by name (storage/keys.h), in the
// store's column-family order, which is the order the key-ordered batches
// sort them in.
constexpr const char* kWrittenCfs[] = {"puzzles", "campaigns", "campaign_members", "by_score",
                                       "by_created"};
enum Cf { kPuzzles, kCampaigns, kMembers, kByScore, kByCreated };

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
  // Exactly the store's options (storage/rocks_options.h), defaults as the
  // coordinator runs with them.
  const foundry::storage::StoreOptions store_options;
  const rocksdb::DBOptions db = foundry::storage::StoreDbOptions(/*create=*/true, store_options);
  const std::vector<rocksdb::ColumnFamilyDescriptor> descriptors =
      foundry::storage::StoreColumnFamilies(store_options);
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db, dir, descriptors, &handles, &raw);
  if (!s.ok()) {
    *error = "floor: cannot open RocksDB in " + dir + ": " + s.ToString();
    return r;
  }
  std::unique_ptr<rocksdb::DB> owner(raw);
  std::vector<rocksdb::ColumnFamilyHandle*> written;
  for (const char* name : kWrittenCfs) {
    auto it = std::find_if(handles.begin(), handles.end(),
                           [&](rocksdb::ColumnFamilyHandle* h) { return h->GetName() == name; });
    if (it == handles.end()) {
      *error = std::string("floor: the store has no column family ") + name;
      for (auto* h : handles) owner->DestroyColumnFamilyHandle(h);
      return r;
    }
    written.push_back(*it);
  }

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
    for (const auto& e : w) wb.Put(written[e.cf], e.key, e.value);
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
