// RocksStore: undoing a campaign's commits from a candidate index on (the
// repair after a worker was caught lying; coordinator/worker_trust.h).
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
  std::vector<std::pair<std::string, std::string>> removed;  // (family, id)
  const std::string prefix = keys::CampaignMemberPrefix(campaign.id());
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(kCampaignMembers)));
  for (it->Seek(keys::CampaignMemberKey(campaign.id(), from_index));
       it->Valid() && it->key().starts_with(prefix); it->Next()) {
    const std::string id = it->value().ToString();
    Result<Puzzle> p = ReadRecord(id);
    if (!p.ok()) {
      return Status::DataLoss("rollback: campaign " + campaign.id() + " lists puzzle " + id +
                              " whose record cannot be read: " + p.status().message());
    }
    rocksdb::Status s = wb.Delete(cf(kCampaignMembers), it->key());
    if (s.ok()) s = wb.Delete(cf(kPuzzles), id);
    if (s.ok()) s = wb.Delete(cf(kByScore), ByScoreKeyOf(*p));
    if (s.ok()) s = wb.Delete(cf(kByCreated), keys::ByCreatedKey(p->created_unix_ms(), id));
    if (!s.ok()) return FromRocks(s, dir_, "rollback: cannot build the write batch");
    removed.emplace_back(p->family(), id);
  }
  if (!it->status().ok()) return FromRocks(it->status(), dir_, "rollback: cannot read the members");
  rocksdb::Status s = wb.Put(cf(kCampaigns), campaign.id(), bytes);
  if (!s.ok()) return FromRocks(s, dir_, "rollback: cannot build the write batch");
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  s = db_->Write(wo, &wb);
  if (!s.ok()) return FromRocks(s, dir_, "rollback: cannot write");
  catalog_.Remove(removed);
  return static_cast<uint64_t>(removed.size());
}

}  // namespace foundry::storage
