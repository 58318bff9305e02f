// Well-formed UTF-8 (common/utf8.h) and error messages a client can decode
// (common/rpc_status.h).
#include "common/utf8.h"

#include <string>

#include <gtest/gtest.h>

#include "common/rpc_status.h"

namespace foundry {
namespace {

TEST(Utf8Test, SequenceLengthsFollowTheTableOfWellFormedSequences) {
  EXPECT_EQ(Utf8SequenceLength("a", 0), 1u);
  EXPECT_EQ(Utf8SequenceLength("\xC3\xA9", 0), 2u);
  EXPECT_EQ(Utf8SequenceLength("\xE2\x82\xAC", 0), 3u);
  EXPECT_EQ(Utf8SequenceLength("\xF0\x9F\x98\x80", 0), 4u);
  EXPECT_EQ(Utf8SequenceLength("\xC3", 0), 0u) << "cut short";
  EXPECT_EQ(Utf8SequenceLength("\xC0\xAF", 0), 0u) << "overlong";
  EXPECT_EQ(Utf8SequenceLength("\xED\xA0\x80", 0), 0u) << "a surrogate";
  EXPECT_EQ(Utf8SequenceLength("\xF4\x90\x80\x80", 0), 0u) << "past U+10FFFF";
  EXPECT_EQ(Utf8SequenceLength("\xA9", 0), 0u) << "a stray continuation byte";
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9"));
  EXPECT_FALSE(IsValidUtf8("caf\xC3"));
}

TEST(Utf8Test, ValidUtf8ReplacesEachBadByteAndKeepsTheRest) {
  EXPECT_EQ(ValidUtf8("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(ValidUtf8("holds '\xC3', not"), "holds '\xEF\xBF\xBD', not");
  EXPECT_EQ(ValidUtf8("\xFF\xFE"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_TRUE(IsValidUtf8(ValidUtf8("\xE2\x82 \xF0\x9F\x98")));
}

// An error message quoting a byte of a caller's character reached clients
// as invalid UTF-8 (Python's gRPC decoded it as Latin-1: "holds 'Ã'").
TEST(Utf8Test, ErrorMessagesSentToClientsAreWellFormed) {
  const grpc::Status s = ToGrpc(Status::InvalidArgument("row 1 holds '\xC3', not a digit"));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "row 1 holds '\xEF\xBF\xBD', not a digit");
}

}  // namespace
}  // namespace foundry
