// RocksStore, part 5: commits. One commit is one RocksDB WriteBatch (the
// puzzles, their index entries and the campaign record) written under
// commit_mu_, after one MultiGet that looks up every id and (campaign,
// index) member key of the batch. Locking: rocks_store.h.
#include <set>
#include <unordered_set>
#include <utility>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "storage/key_ordered_batch.h"
#include "storage/keys.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::Campaign;
using foundry::v1::Puzzle;

namespace {

Status CheckCampaignId(const Campaign& campaign) {
  if (campaign.id().empty()) return Status::InvalidArgument("commit: the campaign has no id");
  if (!keys::IsValidKeyComponent(campaign.id())) {
    return Status::InvalidArgument("commit: campaign id contains a NUL byte");
  }
  return Status::Ok();
}

}  // namespace

Result<RocksStore::Lookup> RocksStore::LookUpLocked(const std::vector<Puzzle>& puzzles,
                                                    const std::string& campaign_id) {
  const size_t n = puzzles.size();
  Lookup out;
  out.member_keys.reserve(n);
  for (const Puzzle& p : puzzles)
    out.member_keys.push_back(keys::CampaignMemberKey(campaign_id, p.index()));
  out.id_stored.assign(n, false);
  out.member_taken.assign(n, false);
  if (n == 0) return out;
  std::vector<rocksdb::ColumnFamilyHandle*> cfs(2 * n);
  std::vector<rocksdb::Slice> lookup(2 * n);
  for (size_t i = 0; i < n; ++i) {
    cfs[i] = cf(kPuzzles);
    lookup[i] = puzzles[i].id();
    cfs[n + i] = cf(kCampaignMembers);
    lookup[n + i] = out.member_keys[i];
  }
  std::vector<rocksdb::PinnableSlice> values(2 * n);
  std::vector<rocksdb::Status> statuses(2 * n);
  db_->MultiGet(rocksdb::ReadOptions(), 2 * n, cfs.data(), lookup.data(), values.data(),
                statuses.data());
  for (size_t i = 0; i < 2 * n; ++i) {
    if (statuses[i].IsNotFound()) continue;
    if (!statuses[i].ok())
      return FromRocks(statuses[i], dir_, "commit: cannot check existing entries");
    (i < n ? out.id_stored[i] : out.member_taken[i - n]) = true;
  }
  return out;
}

Status RocksStore::WriteLocked(const std::vector<const Puzzle*>& puzzles,
                               const std::vector<std::string>& member_keys,
                               const Campaign& campaign) {
  KeyOrderedBatch entries;
  std::unordered_set<std::string_view> ids;
  // The counters of the groups this batch adds to; commit_mu_ makes this
  // read-then-write exact.
  DrawGroupMap changed;
  for (size_t i = 0; i < puzzles.size(); ++i) {
    const Puzzle& p = *puzzles[i];
    if (p.id().empty()) return Status::InvalidArgument("commit: a puzzle has no id");
    if (p.family().empty())
      return Status::InvalidArgument("commit: puzzle " + p.id() + " has no family");
    if (!keys::IsValidKeyComponent(p.family()) ||
        !keys::IsValidKeyComponent(p.difficulty().level())) {
      return Status::InvalidArgument("commit: puzzle " + p.id() +
                                     " has a NUL byte in its family or level");
    }
    if (p.campaign_id() != campaign.id()) {
      return Status::InvalidArgument("commit: puzzle " + p.id() + " names campaign \"" +
                                     p.campaign_id() + "\", not the batch's campaign " +
                                     campaign.id());
    }
    if (!ids.insert(p.id()).second) {
      return Status::AlreadyExists("commit: puzzle " + p.id() + " appears twice in the batch");
    }
    std::string bytes;
    if (!SerializeReadable(p, &bytes)) {
      return Status::InvalidArgument("commit: puzzle " + p.id() +
                                     " does not serialize to a readable record (a string field "
                                     "that is not valid UTF-8?)");
    }
    records_.Add(entries, p.id(), std::move(bytes));
    entries.Put(cf(kCampaignMembers), member_keys[i], p.id());
    entries.Put(cf(kByScore), ByScoreKeyOf(p), CatalogValueOf(p));
    auto [group, inserted] = changed.try_emplace({p.family(), p.difficulty().level()});
    if (inserted) group->second = groups_.Get(p.family(), p.difficulty().level());
    const uint64_t seq = group->second.next++;
    ++group->second.live;
    entries.Put(cf(kByCreated), keys::ByCreatedKey(p.created_unix_ms(), p.id()),
                keys::EncodeSeq(seq));
    entries.Put(cf(kByDraw), keys::DrawKey(p.family(), p.difficulty().level(), seq),
                keys::EncodeDrawValue(p.difficulty().score(), p.created_unix_ms(), p.campaign_id(),
                                      p.id()));
  }
  for (const auto& [group, counters] : changed) {
    entries.Put(cf(kDefault), keys::DrawGroupKey(group.first, group.second),
                keys::EncodeDrawCounters(counters.next, counters.live));
  }
  {
    std::set<std::string_view> distinct(member_keys.begin(), member_keys.end());
    if (distinct.size() != member_keys.size()) {
      return Status::AlreadyExists(
          "commit: two puzzles of the batch have the same candidate index");
    }
  }
  std::string bytes;
  if (!SerializeReadable(campaign, &bytes)) {
    return Status::InvalidArgument("commit: campaign " + campaign.id() +
                                   " does not serialize to a readable record (a string field "
                                   "that is not valid UTF-8?)");
  }
  entries.Put(cf(kCampaigns), campaign.id(), std::move(bytes));
  rocksdb::WriteBatch wb;
  rocksdb::Status s = entries.WriteTo(&wb);
  if (!s.ok()) return FromRocks(s, dir_, "commit: cannot build the write batch");
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  s = db_->Write(wo, &wb);
  if (!s.ok()) return FromRocks(s, dir_, "commit: cannot write");
  // Still under commit_mu_: the next commit reads these counters.
  groups_.Update(changed);
  return Status::Ok();
}

Status RocksStore::Commit(const CommitBatch& batch) {
  FOUNDRY_RETURN_IF_ERROR(CheckCampaignId(batch.campaign));
  FOUNDRY_RETURN_IF_ERROR(WriteState());
  std::lock_guard<std::mutex> commit_lock(commit_mu_);
  // Nothing in the batch may exist yet: an id stored twice or a member
  // entry overwritten would leave the indexes and the counters wrong.
  Result<Lookup> found = LookUpLocked(batch.puzzles, batch.campaign.id());
  if (!found.ok()) return found.status();
  for (size_t i = 0; i < batch.puzzles.size(); ++i) {
    const Puzzle& p = batch.puzzles[i];
    if (found->id_stored[i])
      return Status::AlreadyExists("commit: puzzle " + p.id() + " is already stored");
    if (found->member_taken[i]) {
      return Status::AlreadyExists("commit: campaign " + batch.campaign.id() +
                                   " already has a puzzle at candidate index " +
                                   std::to_string(p.index()));
    }
  }
  std::vector<const Puzzle*> puzzles;
  puzzles.reserve(batch.puzzles.size());
  for (const Puzzle& p : batch.puzzles) puzzles.push_back(&p);
  return WriteLocked(puzzles, found->member_keys, batch.campaign);
}

Result<NewPuzzles> RocksStore::CommitNew(
    const CommitBatch& batch, uint64_t max_new,
    const std::function<void(const NewPuzzles&, Campaign&)>& finish) {
  FOUNDRY_RETURN_IF_ERROR(CheckCampaignId(batch.campaign));
  FOUNDRY_RETURN_IF_ERROR(WriteState());
  std::lock_guard<std::mutex> commit_lock(commit_mu_);
  Result<Lookup> found = LookUpLocked(batch.puzzles, batch.campaign.id());
  if (!found.ok()) return found.status();
  NewPuzzles outcome;
  std::vector<const Puzzle*> kept;
  std::vector<std::string> kept_members;
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < batch.puzzles.size() && outcome.added < max_new; ++i) {
    const Puzzle& p = batch.puzzles[i];
    if (found->id_stored[i] || !seen.insert(p.id()).second) {
      ++outcome.duplicates;
      continue;
    }
    if (found->member_taken[i]) {
      return Status::AlreadyExists("commit: campaign " + batch.campaign.id() +
                                   " already has a puzzle at candidate index " +
                                   std::to_string(p.index()));
    }
    kept.push_back(&p);
    kept_members.push_back(std::move(found->member_keys[i]));
    ++outcome.added;
  }
  Campaign campaign = batch.campaign;
  finish(outcome, campaign);
  FOUNDRY_RETURN_IF_ERROR(WriteLocked(kept, kept_members, campaign));
  return outcome;
}

}  // namespace foundry::storage
