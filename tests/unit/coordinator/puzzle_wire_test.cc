#include "coordinator/puzzle_wire.h"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "foundry/v1/puzzle.pb.h"
#include "puzzles/family.h"
#include "storage/observed_difficulty.h"

namespace foundry::coordinator {
namespace {

using foundry::v1::Puzzle;
using storage::PlayCounts;

Puzzle Stored() {
  Puzzle p;
  p.set_id("sn-0123456789abcdef0123456789abcdef");
  p.set_family("secret-number");
  p.set_campaign_id("c-7");
  p.set_seed(42);
  p.set_index(1234);
  p.set_params_json(R"({"digits":4})");
  p.mutable_difficulty()->set_level("hard");
  p.mutable_difficulty()->set_score(0.62);
  p.mutable_difficulty()->set_details_json(R"({"guesses":7})");
  p.set_puzzle_json(R"({"clues":[1,2,3]})");
  p.set_solution_json(R"({"number":4711})");
  p.set_created_unix_ms(1700000000123);
  return p;
}

// What the service answered before PresentRecord: the parsed record with
// the store's play fields and the observed level.
Puzzle Expected(Puzzle p, const PlayCounts& plays, bool include_solution) {
  if (!include_solution) p.clear_solution_json();
  storage::SetPlayFields(p.difficulty().score(), plays, p);
  p.mutable_observed()->set_level(
      std::string(puzzles::LevelForScore(p.observed().score(), puzzles::kQuartileFloors)));
  return p;
}

TEST(PresentRecordTest, IsTheParsedAnswerByteForByte) {
  const Puzzle stored = Stored();
  for (const PlayCounts plays : {PlayCounts{}, PlayCounts{3, 9, 4200}}) {
    for (const bool with_solution : {true, false}) {
      Result<std::string> bytes =
          PresentRecord(stored.id(), stored.SerializeAsString(), plays, with_solution);
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      const Puzzle want = Expected(stored, plays, with_solution);
      Puzzle got;
      ASSERT_TRUE(got.ParseFromString(*bytes));
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(got, want))
          << got.DebugString() << "\nwant\n"
          << want.DebugString();
      // The record's fields keep their order and plays/observed come last,
      // as protobuf itself serialises them.
      EXPECT_EQ(*bytes, want.SerializeAsString());
      EXPECT_EQ(got.solution_json().empty(), !with_solution);
    }
  }
}

TEST(PresentRecordTest, PlaysMoveTheObservedScoreAndLevel) {
  const Puzzle stored = Stored();  // score 0.62: "hard" with no plays
  Result<std::string> none = PresentRecord(stored.id(), stored.SerializeAsString(), {}, false);
  Result<std::string> failed =
      PresentRecord(stored.id(), stored.SerializeAsString(), {0, 30, 0}, false);
  ASSERT_TRUE(none.ok() && failed.ok());
  Puzzle a;
  Puzzle b;
  ASSERT_TRUE(a.ParseFromString(*none) && b.ParseFromString(*failed));
  EXPECT_DOUBLE_EQ(a.observed().score(), 0.62);
  EXPECT_EQ(a.observed().level(), "hard");
  EXPECT_EQ(b.plays().failed(), 30u);
  EXPECT_EQ(b.observed().plays(), 30u);
  EXPECT_GT(b.observed().score(), 0.75);
  EXPECT_EQ(b.observed().level(), "expert");
}

TEST(PresentRecordTest, PlayFieldsInTheRecordAreReplacedNotMerged) {
  Puzzle stored = Stored();
  stored.mutable_plays()->set_solved(99);
  stored.mutable_plays()->set_mean_solve_seconds(5);
  stored.mutable_observed()->set_level("easy");
  stored.mutable_observed()->set_plays(99);
  Result<std::string> bytes =
      PresentRecord(stored.id(), stored.SerializeAsString(), {1, 0, 2000}, true);
  ASSERT_TRUE(bytes.ok());
  Puzzle got;
  ASSERT_TRUE(got.ParseFromString(*bytes));
  EXPECT_EQ(got.plays().solved(), 1u);
  EXPECT_DOUBLE_EQ(got.plays().mean_solve_seconds(), 2.0);
  EXPECT_EQ(got.observed().plays(), 1u);
  EXPECT_EQ(got.observed().level(), "hard");  // (6.2 + 0) / 11 plays
}

TEST(PresentRecordTest, FieldsThisBuildDoesNotKnowPassThrough) {
  std::string record = Stored().SerializeAsString();
  record += std::string("\xa8\x06\x07", 3);  // field 101, varint 7: a newer writer's field
  Result<std::string> bytes = PresentRecord("sn-x", record, {}, true);
  ASSERT_TRUE(bytes.ok());
  Puzzle got;
  ASSERT_TRUE(got.ParseFromString(*bytes));
  EXPECT_EQ(got.id(), Stored().id());
  EXPECT_NE(bytes->find(std::string("\xa8\x06\x07", 3)), std::string::npos);
}

TEST(PresentRecordTest, AnUnreadableRecordIsDataLossNamingThePuzzle) {
  const std::string good = Stored().SerializeAsString();
  const std::vector<std::string> bad = {
      good.substr(0, good.size() - 3),          // cut inside the last field
      std::string("\x3a\x7f", 2) + "\x09\x00",  // difficulty claims 127 bytes, has 2
      std::string("\x0a\x05", 2) + "ab",        // id claims 5 bytes, has 2
      std::string("\x00\x01", 2),               // field number 0
      std::string("\x0b", 1),                   // a group start (wire type 3) never ended
  };
  for (const std::string& record : bad) {
    Result<std::string> bytes = PresentRecord("sn-bad", record, {}, true);
    ASSERT_FALSE(bytes.ok()) << "accepted " << testing::PrintToString(record);
    EXPECT_EQ(bytes.status().code(), Status::Code::kDataLoss);
    EXPECT_NE(bytes.status().message().find("sn-bad"), std::string::npos);
  }
}

}  // namespace
}  // namespace foundry::coordinator
