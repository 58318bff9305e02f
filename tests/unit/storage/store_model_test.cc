// A randomized test of the store against a small in-memory model of what it
// should hold: random commits (some of them invalid) across three families
// and two campaigns, reopening now and then, and after each round every Scan
// filter compared with the model, whole and paged.
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "store_test_util.h"

namespace foundry::storage {
namespace {

using foundry::v1::Puzzle;
using testing::Ids;
using testing::MakeCampaign;
using testing::MakePuzzle;
using testing::ScanAll;
using testing::ScanPaged;
using testing::TempDir;

const std::vector<std::string> kFamilies = {"secret-number", "sudoku", "zebra"};
const std::vector<std::string> kLevels = {"easy", "medium", "hard", "expert"};
const std::vector<std::string> kCampaigns = {"c-00000000000000a1", "c-00000000000000b2"};

// What the store should hold.
struct Model {
  std::map<std::string, Puzzle> puzzles;                           // id -> puzzle
  std::map<std::string, std::map<uint64_t, std::string>> members;  // campaign -> index -> id
  std::map<std::string, foundry::v1::Campaign> campaigns;          // id -> record

  // The ids a Scan of `f` must visit, in the order the store promises.
  std::vector<std::string> Expect(const PuzzleFilter& f) const {
    auto matches = [&](const Puzzle& p) {
      return (f.family.empty() || p.family() == f.family) &&
             (f.level.empty() || p.difficulty().level() == f.level);
    };
    std::vector<std::string> ids;
    if (!f.campaign_id.empty()) {
      auto it = members.find(f.campaign_id);
      if (it == members.end()) return ids;
      for (const auto& [index, id] : it->second) {
        if (matches(puzzles.at(id))) ids.push_back(id);
      }
      return ids;
    }
    if (!f.family.empty()) {
      std::vector<std::pair<double, std::string>> keyed;  // (score, id): by_score's order
      for (const auto& [id, p] : puzzles) {
        if (matches(p)) keyed.emplace_back(p.difficulty().score(), id);
      }
      std::sort(keyed.begin(), keyed.end());
      for (auto& [score, id] : keyed) ids.push_back(id);
      return ids;
    }
    for (const auto& [id, p] : puzzles) ids.push_back(id);
    return ids;
  }

  std::map<std::string, uint64_t> Counts() const {
    std::map<std::string, uint64_t> counts;
    for (const auto& [id, p] : puzzles) ++counts[p.family()];
    return counts;
  }
};

std::vector<PuzzleFilter> AllFilters() {
  std::vector<PuzzleFilter> filters = {PuzzleFilter{}};
  for (const std::string& campaign : kCampaigns) filters.push_back({"", "", campaign});
  filters.push_back({"", "", "c-unknown"});
  for (const std::string& family : kFamilies) {
    filters.push_back({family, "", ""});
    filters.push_back({family, "", kCampaigns[0]});
    for (const std::string& level : kLevels) filters.push_back({family, level, ""});
    filters.push_back({family, "hard", kCampaigns[1]});
  }
  return filters;
}

class StoreModelTest : public ::testing::TestWithParam<uint32_t> {};

INSTANTIATE_TEST_SUITE_P(Seeds, StoreModelTest, ::testing::Values(1u, 2u, 3u, 20240601u));

TEST_P(StoreModelTest, ScansMatchTheModel) {
  std::mt19937_64 rng(GetParam());
  auto pick = [&](const std::vector<std::string>& v) -> const std::string& {
    return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
  };
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };

  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  Model model;
  std::map<std::string, uint64_t> next_index;  // per campaign
  auto store = Store::Open(dir, StoreOptions{});
  ASSERT_TRUE(store.ok()) << store.status().ToString();

  for (int round = 0; round < 12; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    for (int commit = 0; commit < 8; ++commit) {
      const std::string& campaign = pick(kCampaigns);
      CommitBatch batch;
      const int n = std::uniform_int_distribution<int>(0, 25)(rng);
      uint64_t index = next_index[campaign];
      for (int i = 0; i < n; ++i) {
        index += std::uniform_int_distribution<uint64_t>(1, 4)(rng);  // gaps: rejected candidates
        batch.puzzles.push_back(MakePuzzle(pick(kFamilies), pick(kLevels), campaign, index));
      }
      batch.campaign = MakeCampaign(campaign, "mixed", index + 1);
      // Now and then slip in an id that is already stored: the whole batch
      // must be refused.
      const bool poison = !model.puzzles.empty() && n > 0 && chance(0.15);
      if (poison) {
        auto it = model.puzzles.begin();
        std::advance(it, std::uniform_int_distribution<size_t>(0, model.puzzles.size() - 1)(rng));
        Puzzle dup = it->second;
        dup.set_campaign_id(campaign);
        dup.set_index(index + 1);
        batch.puzzles.push_back(dup);
      }
      Status s = (*store)->Commit(batch);
      if (poison) {
        ASSERT_EQ(s.code(), Status::Code::kAlreadyExists) << s.ToString();
        continue;
      }
      ASSERT_TRUE(s.ok()) << s.ToString();
      for (const Puzzle& p : batch.puzzles) {
        model.puzzles[p.id()] = p;
        model.members[campaign][p.index()] = p.id();
      }
      model.campaigns[campaign] = batch.campaign;
      next_index[campaign] = index + 1;
    }

    if (chance(0.3)) {
      store = Result<std::unique_ptr<Store>>(Status::Unavailable("closing"));  // close first
      store = Store::Open(dir, StoreOptions{});
      ASSERT_TRUE(store.ok()) << store.status().ToString();
    }

    ASSERT_EQ((*store)->PuzzleCounts(), model.Counts());
    Result<std::vector<foundry::v1::Campaign>> campaigns = (*store)->LoadCampaigns();
    ASSERT_TRUE(campaigns.ok());
    ASSERT_EQ(campaigns->size(), model.campaigns.size());
    for (const auto& c : *campaigns)
      EXPECT_TRUE(testing::SameMessage(c, model.campaigns.at(c.id())));

    for (const PuzzleFilter& f : AllFilters()) {
      SCOPED_TRACE(f.family + "/" + f.level + "/" + f.campaign_id);
      const std::vector<std::string> want = model.Expect(f);
      Result<testing::ScanResult> whole = ScanAll(**store, f);
      ASSERT_TRUE(whole.ok()) << whole.status().ToString();
      ASSERT_EQ(Ids(whole->puzzles), want);
      for (const Puzzle& p : whole->puzzles) {
        ASSERT_TRUE(testing::SameMessage(testing::WithoutPlays(p), model.puzzles.at(p.id())));
      }
      const uint64_t limit = std::uniform_int_distribution<uint64_t>(1, 40)(rng);
      ASSERT_EQ(ScanPaged(**store, f, limit), want) << "limit " << limit;
    }

    // Point lookups: every stored id plus as many unknown ones.
    std::vector<std::string> ids;
    std::vector<bool> want;
    for (const auto& [id, p] : model.puzzles) {
      ids.push_back(id);
      want.push_back(true);
      ids.push_back(id + "0");
      want.push_back(false);
    }
    Result<std::vector<bool>> has = (*store)->ContainsPuzzles(ids);
    ASSERT_TRUE(has.ok());
    ASSERT_EQ(*has, want);
  }
}

}  // namespace
}  // namespace foundry::storage
