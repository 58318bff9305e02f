// RocksStore: undoing a campaign's commits from a candidate index on (the
// repair after a worker was caught lying; coordinator/worker_trust.h).
#include <optional>

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/write_batch.h>

#include "storage/keys.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::Puzzle;

Result<uint64_t> RocksStore::RollbackCampaign(const foundry::v1::Campaign& campaign,
                                              uint64_t from_index) {
  if (campaign.id().empty() || !keys::IsValidKeyComponent(campaign.id())) {
    return Status::InvalidArgument("rollback: the campaign id is empty or holds a NUL byte");
  }
  std::string bytes;
  if (!SerializeReadable(campaign, &bytes)) {
    return Status::InvalidArgument("rollback: campaign " + campaign.id() +
                                   " does not serialize to a readable record");
  }
  std::lock_guard<std::mutex> commit_lock(commit_mu_);
  rocksdb::WriteBatch wb;
  uint64_t removed = 0;
  DrawGroupMap changed;  // the counters of the groups that lose puzzles
  const std::string prefix = keys::CampaignMemberPrefix(campaign.id());
  std::unique_ptr<rocksdb::Iterator> it(
      db_->NewIterator(rocksdb::ReadOptions(), cf(kCampaignMembers)));
  for (it->Seek(keys::CampaignMemberKey(campaign.id(), from_index));
       it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const std::string id = it->value().ToString();
    Result<Puzzle> p = ReadRecord(id);
    if (!p.ok()) {
      return Status::DataLoss("rollback: campaign " + campaign.id() + " lists puzzle " + id +
                              " whose record cannot be read: " + p.status().message());
    }
    uint64_t record_seq = 0;
    rocksdb::Status s = records_.SeqOf(rocksdb::ReadOptions(), id, &record_seq);
    if (s.ok()) s = wb.Delete(cf(kCampaignMembers), it->key());
    if (s.ok()) s = records_.Delete(wb, id, record_seq);
    if (s.ok()) s = wb.Delete(cf(kByScore), ByScoreKeyOf(*p));
    if (!s.ok()) return FromRocks(s, dir_, "rollback: cannot build the write batch");
    // The by_created value names the puzzle's by_draw entry: the removal
    // costs a point lookup, not a walk of its group.
    const std::string created_key = keys::ByCreatedKey(p->created_unix_ms(), id);
    std::string seq_bytes;
    s = db_->Get(rocksdb::ReadOptions(), cf(kByCreated), created_key, &seq_bytes);
    if (!s.ok() && !s.IsNotFound()) return FromRocks(s, dir_, "rollback: cannot read by_created");
    const std::optional<uint64_t> seq = keys::DecodeSeq(seq_bytes);
    if (!seq) {
      return Status::DataLoss("rollback: puzzle " + id + " of campaign " + campaign.id() +
                              " has no draw index entry");
    }
    s = wb.Delete(cf(kByCreated), created_key);
    if (s.ok())
      s = wb.Delete(cf(kByDraw), keys::DrawKey(p->family(), p->difficulty().level(), *seq));
    if (!s.ok()) return FromRocks(s, dir_, "rollback: cannot build the write batch");
    auto [group, inserted] = changed.try_emplace({p->family(), p->difficulty().level()});
    if (inserted) group->second = groups_.Get(p->family(), p->difficulty().level());
    if (group->second.live == 0) {
      return Status::DataLoss("rollback: the draw counters of " + p->family() + "/" +
                              p->difficulty().level() + " are below the puzzles stored");
    }
    --group->second.live;
    ++removed;
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "rollback: cannot read the members");
  rocksdb::Status s = wb.Put(cf(kCampaigns), campaign.id(), bytes);
  for (const auto& [group, counters] : changed) {
    if (!s.ok()) break;
    s = wb.Put(cf(kDefault), keys::DrawGroupKey(group.first, group.second),
               keys::EncodeDrawCounters(counters.next, counters.live));
  }
  if (!s.ok()) return FromRocks(s, dir_, "rollback: cannot build the write batch");
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  s = db_->Write(wo, &wb);
  if (!s.ok()) return FromRocks(s, dir_, "rollback: cannot write");
  groups_.Update(changed);
  return removed;
}

}  // namespace foundry::storage
