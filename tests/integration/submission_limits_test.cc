// Job submissions the coordinator holds at once are bounded, all workers
// together (--max-submission-mb): a worker holding many leases cannot make
// it keep them all in memory. Past the bound a stream is refused with
// RESOURCE_EXHAUSTED, and an honest submission goes through afterwards.
#include <gtest/gtest.h>

#include "tests/integration/bad_input_fixture.h"

namespace foundry::testing {
namespace {

class SubmissionLimitsTest : public BadInputTest {
 protected:
  std::vector<std::string> CoordinatorArgs() const override {
    return {"--max-submission-mb", "16"};
  }
};

TEST_F(SubmissionLimitsTest, SubmissionsPastTheCoordinatorsBudgetAreRefusedForNow) {
  ASSERT_TRUE(Submit("secret-number", 1000, {}, 100).ok());
  const v1::Job job = LeaseJob();
  // Within what a job of 100 candidates may send (41 MiB), past the 16 MiB
  // all submissions together may hold.
  v1::ResultChunk heavy = Chunk(job, false, 0);
  heavy.add_puzzles()->set_puzzle_json(std::string(10 << 20, 'x'));
  const grpc::Status refused = SubmitChunks({heavy, heavy});
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << refused.error_message();
  EXPECT_NE(refused.error_message().find("submissions, its limit is 16777216: send this one "
                                         "again later"),
            std::string::npos)
      << refused.error_message();

  // What the refused stream held is given back: the same 10 MB fits again
  // (and is then refused for what it is, an output the job did not make).
  const grpc::Status again = SubmitChunks({heavy, Chunk(job, true, 100)});
  EXPECT_NE(again.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << again.error_message();

  // A small submission of another job is taken.
  const v1::Job next = LeaseJob();
  const grpc::Status small = SubmitChunks({Chunk(next, true, 100)});
  EXPECT_TRUE(small.ok()) << small.error_message();
}

}  // namespace
}  // namespace foundry::testing
