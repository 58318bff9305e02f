#include "bench/fleet_sim_floor.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include <sys/resource.h>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include "bench/process_cpu.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/puzzle.pb.h"
#include "storage/keys.h"
#include "storage/rocks_options.h"

namespace foundry::fleet_sim {
namespace {

namespace keys = foundry::storage::keys;

// The column families the floor writes (storage/keys.h), in the store's
// column-family order, which is the order the key-ordered batches sort them
// in.
constexpr std::string_view kWrittenCfs[] = {keys::kPuzzlesCf,         keys::kCampaignsCf,
                                            keys::kCampaignMembersCf, keys::kByScoreCf,
                                            keys::kByCreatedCf,       keys::kRecordsCf};
enum Cf { kPuzzles, kCampaigns, kMembers, kByScore, kByCreated, kRecords };

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
  for (std::string_view name : kWrittenCfs) {
    auto it = std::find_if(handles.begin(), handles.end(),
                           [&](rocksdb::ColumnFamilyHandle* h) { return h->GetName() == name; });
    if (it == handles.end()) {
      *error = "floor: the store has no column family " + std::string(name);
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
      // The record under its seq, the id naming it (storage/record_table.h).
      w.push_back({kRecords, keys::EncodeSeq(r.puzzles), rec.SerializeAsString()});
      w.push_back({kPuzzles, p->id(), keys::EncodeSeq(r.puzzles)});
      w.push_back({kMembers, keys::CampaignMemberKey(campaign_id, p->index()), p->id()});
      w.push_back({kByScore, keys::ByScoreKey(family, p->difficulty().score(), p->id()),
                   keys::EncodeCatalogValue(level, created, campaign_id)});
      w.push_back({kByCreated, keys::ByCreatedKey(created, p->id()), ""});
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
