#include <string>

#include <gtest/gtest.h>

#include "console/console_api.h"

namespace foundry::console {
namespace {

Result<nlohmann::json> Parse(const std::string& text) {
  httplib::Request req;
  req.body = text;
  return JsonBody(req);
}

TEST(JsonBodyTest, AnObjectIsTakenAndAnythingElseIsNamed) {
  auto ok = Parse(R"({"family":"sudoku","count":3})");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ((*ok)["count"], 3);

  // Not JSON: the parser says where and why, without its exception tag.
  for (const std::string& bad :
       {std::string("{\"family\":\"\xff\"}"), std::string(""), std::string("{\"family\":")}) {
    auto r = Parse(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(r.status().message().starts_with("the request body is not JSON: parse error at "))
        << r.status().message();
    EXPECT_EQ(r.status().message().find("[json.exception"), std::string::npos);
  }
  EXPECT_NE(Parse("{\"family\":\"\xff\"}").status().message().find("ill-formed UTF-8"),
            std::string::npos);
  // JSON, but not an object.
  for (const char* other : {"[1]", "\"x\"", "3"}) {
    EXPECT_EQ(Parse(other).status().message(), "the request body must be a JSON object") << other;
  }
}

}  // namespace
}  // namespace foundry::console
