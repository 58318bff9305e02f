#include "common/utf8_fields.h"

#include <string>

#include <gtest/gtest.h>

#include "common/utf8.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/store.pb.h"

namespace foundry {
namespace {

TEST(Utf8Test, WellFormedTextPassesAndEveryIllFormedKindFails) {
  for (const std::string ok : {"", "plain", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                               "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf"}) {
    EXPECT_TRUE(IsValidUtf8(ok)) << ok;
  }
  for (const std::string bad : {
           "\xff",              // never a UTF-8 byte
           "\x80",              // a continuation byte alone
           "\xc3",              // cut short
           "\xc0\xaf",          // overlong '/'
           "\xe0\x80\xaf",      // overlong, three bytes
           "\xed\xa0\x80",      // a surrogate
           "\xf4\x90\x80\x80",  // past U+10FFFF
           "ok\xe2\x82",        // cut short at the end
       }) {
    EXPECT_FALSE(IsValidUtf8(bad)) << "bytes: " << bad.size();
  }
}

TEST(Utf8FieldsTest, NamesTheFirstFieldProtobufWouldRefuse) {
  v1::SubmitCampaignRequest submit;
  submit.mutable_spec()->set_family("sudoku");
  (*submit.mutable_spec()->mutable_params())["box"] = "3x3";
  EXPECT_EQ(FirstNonUtf8Field(submit), "");
  EXPECT_TRUE(CheckUtf8Fields(submit).ok());

  (*submit.mutable_spec()->mutable_params())["box"] = "\xff";
  EXPECT_EQ(FirstNonUtf8Field(submit), "spec.params.value");
  const Status refused = CheckUtf8Fields(submit);
  EXPECT_EQ(refused.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(refused.message().find("spec.params.value is not valid UTF-8"), std::string::npos)
      << refused.message();

  v1::GetPuzzlesRequest many;
  many.add_ids("sd-1");
  many.add_ids("sd-\xc3");
  EXPECT_EQ(FirstNonUtf8Field(many), "ids");
}

}  // namespace
}  // namespace foundry
