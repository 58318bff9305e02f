// Loopback means an address, not a prefix: DNS rebinding with names such as
// 127.attacker.example must not pass for this machine (common/listen_address.h).
#include <gtest/gtest.h>

#include "common/listen_address.h"

namespace foundry {
namespace {

TEST(LoopbackHostTest, AcceptsOnlyLoopbackAddressesAndLocalhost) {
  for (const char* host : {"localhost", "127.0.0.1", "127.255.0.9", "::1", "[::1]"}) {
    EXPECT_TRUE(IsLoopbackHost(host)) << host;
  }
  for (const char* host :
       {"127.attacker.example", "127.0.0.1.nip.io", "127.1", "127.0.0.256", "0177.0.0.1",
        "128.0.0.1", "10.0.0.1", "localhost.evil", "", "[::2]", "::ffff:127.0.0.1x", "0.0.0.0"}) {
    EXPECT_FALSE(IsLoopbackHost(host)) << host;
  }
}

TEST(LoopbackHostTest, ListenAddressesUseTheSameRule) {
  EXPECT_TRUE(IsLoopbackAddress("127.0.0.1:7420"));
  EXPECT_TRUE(IsLoopbackAddress("[::1]:7420"));
  EXPECT_TRUE(IsLoopbackAddress("localhost:0"));
  EXPECT_FALSE(IsLoopbackAddress("127.evil.example:7420"));
  EXPECT_FALSE(IsLoopbackAddress("0.0.0.0:7420"));
}

TEST(LoopbackHostTest, AListenFlagMustBeHostAndPort) {
  for (const char* ok : {"127.0.0.1:7420", "0.0.0.0:0", "[::1]:65535", "localhost:9100"}) {
    EXPECT_TRUE(CheckListenAddress("--listen", ok).ok()) << ok;
  }
  for (const char* bad : {"garbage", "127.0.0.1:99999", "127.0.0.1:", ":7420", "9100",
                          "127.0.0.1:7420x", "unix:/tmp/s"}) {
    const Status s = CheckListenAddress("--metrics-listen", bad);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find(std::string("--metrics-listen '") + bad + "'"), std::string::npos)
        << s.message();
  }
  EXPECT_TRUE(CheckListenAddress("--listen", "unix:/tmp/s", /*unix_ok=*/true).ok());
}

TEST(LoopbackHostTest, AHostHeaderMustNameLoopbackAndTheServersOwnPort) {
  EXPECT_TRUE(IsLoopbackHostHeader("127.0.0.1:8080", 8080));
  EXPECT_TRUE(IsLoopbackHostHeader("localhost:8080", 8080));
  EXPECT_TRUE(IsLoopbackHostHeader("[::1]:8080", 8080));
  EXPECT_TRUE(IsLoopbackHostHeader("localhost", 80));
  EXPECT_FALSE(IsLoopbackHostHeader("localhost", 8080)) << "no port means 80";
  EXPECT_FALSE(IsLoopbackHostHeader("127.0.0.1:8081", 8080));
  EXPECT_FALSE(IsLoopbackHostHeader("127.attacker.example:8080", 8080));
  EXPECT_FALSE(IsLoopbackHostHeader("[::1]", 8080));
  EXPECT_FALSE(IsLoopbackHostHeader("127.0.0.1:80x", 80));
  EXPECT_FALSE(IsLoopbackHostHeader("127.0.0.1:99999999999", 8080));
  EXPECT_FALSE(IsLoopbackHostHeader("", 8080));
}

TEST(LoopbackHostTest, SplitHostPortTakesApartOnlyAHostAndAPortNumber) {
  auto v6 = SplitHostPort("[::1]:7420");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 7420);
  EXPECT_EQ(SplitHostPort("node17:0")->port, 0);
  // "-1" once passed as a port (from_chars reads a sign) and reached the bind.
  for (const char* bad : {"node17", ":7420", "node17:", "node17:65536", "node17:7x", "[::1]",
                          "node17:-1", "node17:+80", "node17: 80"}) {
    EXPECT_FALSE(SplitHostPort(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace foundry
