#include "console/api_json.h"

#include <gtest/gtest.h>

namespace foundry::console {
namespace {

foundry::v1::Campaign Running(uint64_t count, uint64_t stored, double rate) {
  foundry::v1::Campaign c;
  c.set_id("c-0123456789abcdef");
  c.mutable_spec()->set_family("sudoku");
  c.mutable_spec()->set_count(count);
  c.set_state(foundry::v1::CAMPAIGN_STATE_RUNNING);
  c.mutable_counters()->set_stored(stored);
  c.mutable_counters()->set_candidates(400);
  c.mutable_counters()->set_accepted(100);
  c.mutable_counters()->set_duplicates(5);
  c.set_rate_per_second(rate);
  c.set_params_json(R"({"level":"hard","size":9})");
  return c;
}

TEST(ApiJsonTest, CampaignCarriesRatesAndEta) {
  const auto j = CampaignJson(Running(1000, 400, 60));
  EXPECT_EQ(j["state"], "running");
  EXPECT_EQ(j["level"], "hard");  // from the params when the spec has none
  EXPECT_DOUBLE_EQ(j["eta_seconds"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(j["acceptance_rate"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(j["duplicate_rate"].get<double>(), 0.05);
  EXPECT_EQ(j["params"]["size"], 9);
}

TEST(ApiJsonTest, NoEtaWithoutARateOrAfterTheEnd) {
  EXPECT_TRUE(CampaignJson(Running(1000, 400, 0))["eta_seconds"].is_null());
  auto done = Running(1000, 1000, 50);
  done.set_state(foundry::v1::CAMPAIGN_STATE_DONE);
  EXPECT_TRUE(CampaignJson(done)["eta_seconds"].is_null());
  EXPECT_EQ(CampaignJson(done)["state"], "done");
}

TEST(ApiJsonTest, StoredTextThatIsNotAnObjectIsShownAsEmpty) {
  EXPECT_EQ(ObjectOrEmpty("not json"), nlohmann::json::object());
  EXPECT_EQ(ObjectOrEmpty("[1,2]"), nlohmann::json::object());
  EXPECT_EQ(ObjectOrEmpty(R"({"a":1})")["a"], 1);
}

TEST(ApiJsonTest, OverviewCountsAliveWorkersAndStoreTotals) {
  PollSnapshot snap;
  const int64_t now = 1'000'000;
  auto* w1 = snap.workers.add_workers();
  w1->set_worker_id("a");
  w1->set_threads(2);
  w1->set_last_seen_unix_ms(now - 1000);
  auto* w2 = snap.workers.add_workers();
  w2->set_worker_id("gone");
  w2->set_last_seen_unix_ms(now - kWorkerAliveMs - 1);
  auto* w3 = snap.workers.add_workers();
  w3->set_worker_id("liar");
  w3->set_state(foundry::v1::WORKER_STATE_QUARANTINED);
  w3->set_last_seen_unix_ms(now);
  for (const char* level : {"easy", "hard"}) {
    auto* l = snap.stats.add_levels();
    l->set_family("sudoku");
    l->set_level(level);
    l->set_puzzles(10);
  }
  snap.stats.set_puzzles(20);
  *snap.stats.add_campaigns() = Running(100, 20, 5);
  snap.history.push_back({now - 2000, {{"zebra", 3.0}}});
  const auto j = OverviewJson(snap, now, 2000);
  EXPECT_EQ(j["workers"]["alive"], 1);
  EXPECT_EQ(j["workers"]["quarantined"], 1);
  EXPECT_EQ(j["workers"]["threads"], 2);
  EXPECT_EQ(j["store"]["families"]["sudoku"], 20);
  EXPECT_EQ(j["campaigns"].size(), 1u);
  EXPECT_EQ(j["families"], nlohmann::json({"sudoku", "zebra"}));
  EXPECT_EQ(j["history"][0]["rates"]["zebra"], 3.0);
}

}  // namespace
}  // namespace foundry::console
