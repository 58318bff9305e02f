// The pieces of a batch-scheduled worker: durations on the command line, the
// coordinator's rendezvous file, and the idle clock of --exit-when-idle.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "common/duration.h"
#include "common/listen_address.h"
#include "worker/coordinator_address.h"
#include "worker/idle_watch.h"

namespace foundry::worker {
namespace {

using std::chrono::milliseconds;

TEST(ParseDurationTest, TakesEachUnitAndPlainSeconds) {
  EXPECT_EQ(*ParseDuration("500ms"), milliseconds(500));
  EXPECT_EQ(*ParseDuration("5s"), milliseconds(5000));
  EXPECT_EQ(*ParseDuration("10m"), milliseconds(600'000));
  EXPECT_EQ(*ParseDuration("2h"), milliseconds(7'200'000));
  EXPECT_EQ(*ParseDuration("30"), milliseconds(30'000));
  EXPECT_EQ(*ParseDuration("1.5s"), milliseconds(1500));
  EXPECT_EQ(*ParseDuration("0"), milliseconds(0));
}

TEST(ParseDurationTest, RefusesWhatIsNotADurationNamingIt) {
  for (const char* bad : {"", "s", "-5s", "5 s", "5d", "5sec", "1e400", "..", "ten"}) {
    auto d = ParseDuration(bad);
    ASSERT_FALSE(d.ok()) << bad;
    EXPECT_NE(d.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << d.status().message();
  }
}

TEST(CoordinatorAddressTest, TakesHostPortOrAGrpcSchemeAndNamesATypo) {
  for (const char* ok :
       {"127.0.0.1:7420", "node17.cluster:7420", "[::1]:7420", "dns:///coordinator:7420",
        "unix:/run/foundry.sock", "ipv4:10.0.0.1:7420"}) {
    EXPECT_TRUE(CheckDialAddress("--coordinator", ok).ok()) << ok;
  }
  for (const char* bad : {"nope", "node17", "127.0.0.1", "host:", "host:0", "host:99999",
                          "host:7420 extra", "", "host:-1"}) {
    const Status s = CheckDialAddress("--coordinator", bad);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find(std::string("--coordinator '") + bad + "'"), std::string::npos)
        << s.message();
  }
}

class AddressFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("foundry-addr-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "coordinator.addr").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& text) { std::ofstream(path_) << text; }
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(AddressFileTest, MissingOrEmptyIsNotFoundYet) {
  EXPECT_EQ(ReadCoordinatorAddress(path_).status().code(), Status::Code::kNotFound);
  Write("");
  EXPECT_EQ(ReadCoordinatorAddress(path_).status().code(), Status::Code::kNotFound);
  Write("  \n");
  EXPECT_EQ(ReadCoordinatorAddress(path_).status().code(), Status::Code::kNotFound);
}

TEST_F(AddressFileTest, ReadsTheFirstLineTrimmed) {
  Write("node17.cluster:7420\n");
  EXPECT_EQ(*ReadCoordinatorAddress(path_), "node17.cluster:7420");
  Write("  10.0.0.1:41234\r\nignored\n");
  EXPECT_EQ(*ReadCoordinatorAddress(path_), "10.0.0.1:41234");
  Write("[fd00::1]:7420");
  EXPECT_EQ(*ReadCoordinatorAddress(path_), "[fd00::1]:7420");
}

TEST_F(AddressFileTest, RefusesALineThatIsNotHostPortNamingTheFile) {
  for (const char* bad : {"node17", "node17:", ":7420", "node17:99999", "node17:74x", "a b:1"}) {
    Write(bad);
    auto a = ReadCoordinatorAddress(path_);
    ASSERT_EQ(a.status().code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_NE(a.status().message().find(path_), std::string::npos) << a.status().message();
  }
}

TEST(IdleWatchTest, IdleOnlyWhileNoJobRunsAndFromTheLastJobsEnd) {
  IdleWatch idle;
  const auto t0 = IdleWatch::Clock::now();
  EXPECT_TRUE(idle.IdleFor(milliseconds(1000), t0 + milliseconds(1500)));
  idle.JobStarted();
  idle.JobStarted();
  EXPECT_FALSE(idle.IdleFor(milliseconds(0), t0 + std::chrono::hours(1))) << "jobs run";
  idle.JobEnded();
  EXPECT_FALSE(idle.IdleFor(milliseconds(0), t0 + std::chrono::hours(1))) << "one still runs";
  idle.JobEnded();
  const auto ended = IdleWatch::Clock::now();
  EXPECT_FALSE(idle.IdleFor(milliseconds(1000), ended + milliseconds(500)));
  EXPECT_TRUE(idle.IdleFor(milliseconds(1000), ended + milliseconds(1001)));
}

}  // namespace
}  // namespace foundry::worker
