// A caller's long value comes back in an error as a short quote, whatever
// the method: its first bytes and how long it was, never the whole of it
// (clients log these messages, and gRPC carries them in a header).
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "tests/integration/bad_input_fixture.h"

namespace foundry::testing {
namespace {

TEST_F(BadInputTest, LongValuesAreQuotedShortInEveryError) {
  const std::string long_value(10000, 'z');
  const std::string said = "... (10000 bytes)";
  using C = grpc::StatusCode;
  v1::Puzzle puzzle;
  v1::Campaign campaign;
  const std::vector<Case> cases = {
      {"puzzle id", [&] { return GetPuzzle(long_value); }, C::INVALID_ARGUMENT,
       "is not a puzzle id"},
      {"puzzle ids", [&] { return GetPuzzles({long_value}); }, C::INVALID_ARGUMENT,
       "is not a puzzle id"},
      {"family filter", [&] { return Query(long_value, "", 0, ""); }, C::INVALID_ARGUMENT,
       "unknown family"},
      {"level filter", [&] { return Query("secret-number", long_value, 0, ""); },
       C::INVALID_ARGUMENT, "level must be"},
      {"campaign family", [&] { return Submit(long_value, 10); }, C::INVALID_ARGUMENT,
       "unknown family"},
      {"campaign level", [&] { return SubmitGoal("secret-number", long_value, {}, {}); },
       C::INVALID_ARGUMENT, "level must be"},
      {"campaign score",
       [&] {
         return Submit("secret-number", 10, {{"min_score", long_value}});
       },
       C::INVALID_ARGUMENT, "min_score must be"},
      {"campaign level twice",
       [&] {
         return SubmitGoal("secret-number", "easy", {}, {}, {{"level", long_value}});
       },
       C::INVALID_ARGUMENT, "give one of them"},
      {"campaign id",
       [&] {
         v1::GetCampaignRequest req;
         req.set_campaign_id(long_value);
         return campaigns_->GetCampaign(Ctx().get(), req, &campaign);
       },
       C::NOT_FOUND, "no campaign with id"},
      {"cancelled campaign id",
       [&] {
         v1::CancelCampaignRequest req;
         req.set_campaign_id(long_value);
         return campaigns_->CancelCampaign(Ctx().get(), req, &campaign);
       },
       C::NOT_FOUND, "no campaign with id"},
      {"day",
       [&] {
         v1::PuzzleOfTheDayRequest req;
         req.set_family("secret-number");
         req.set_date(long_value);
         return store_->PuzzleOfTheDay(Ctx().get(), req, &puzzle);
       },
       C::INVALID_ARGUMENT, "date must be"},
      {"lease id",
       [&] {
         v1::HeartbeatRequest req;
         req.set_lease_id(long_value);
         v1::HeartbeatResponse resp;
         return workers_->Heartbeat(Ctx().get(), req, &resp);
       },
       C::NOT_FOUND, "no lease"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const grpc::Status s = c.call();
    EXPECT_EQ(s.error_code(), c.code) << s.error_message().substr(0, 300);
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << s.error_message().substr(0, 300);
    EXPECT_LT(s.error_message().size(), 400u) << s.error_message().substr(0, 300);
    EXPECT_NE(s.error_message().find(said), std::string::npos) << s.error_message().substr(0, 300);
  }
}

}  // namespace
}  // namespace foundry::testing
