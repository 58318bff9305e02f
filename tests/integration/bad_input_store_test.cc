// Bad input beyond single requests: an import of huge messages, every
// family's goal keys, stores damaged on disk, the puzzle of the day's
// requests, ExportPlays' filters, the coordinator's rating flags and an
// import with an unreadable message.
#include <filesystem>
#include <fstream>

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"
#include "puzzles/rng.h"
#include "tests/integration/bad_input_fixture.h"

namespace foundry::testing {
namespace {

// Peak resident memory of a process, in MB (VmHWM), or -1.
double PeakRssMb(pid_t pid) {
  const long kb = ProcStatus(pid, "VmHWM");
  return kb < 0 ? -1 : static_cast<double>(kb) / 1024;
}

TEST_F(BadInputTest, AnImportOfHugeMessagesIsHandledAFewMegabytesAtATime) {
  const double before = PeakRssMb(cluster_->coordinator().pid());
  ASSERT_GT(before, 0);
  auto ctx = Ctx();
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  v1::ImportResponse resp;
  auto writer = store_->ImportPuzzles(ctx.get(), &resp);
  // 30 messages of 15 MB each: all were buffered before any was looked at
  // (the coordinator went from 157 to 682 MB).
  v1::ImportRequest req;
  req.mutable_puzzle()->set_family("secret-number");
  req.mutable_puzzle()->set_puzzle_json("\"" + std::string(15 << 20, 'x') + "\"");
  req.mutable_puzzle()->set_solution_json("{}");
  for (int i = 1; i <= 30; ++i) {
    req.set_line(static_cast<uint64_t>(i));
    ASSERT_TRUE(writer->Write(req)) << "the server ended the import at message " << i;
  }
  writer->WritesDone();
  const grpc::Status s = writer->Finish();
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.stored(), 0u);
  EXPECT_EQ(resp.rejected_size(), 30) << "each bad puzzle is rejected with its line";
  const double growth = PeakRssMb(cluster_->coordinator().pid()) - before;
  EXPECT_LT(growth, 250) << "the import was buffered whole: +" << growth << " MB";
}

// A client-streamed import with an unreadable message in the middle: gRPC's
// Read saw it as the stream's end, so the import answered OK and the
// messages after it were dropped unseen. Now the error names the message;
// what came before it is stored, nothing after it.
TEST_F(BadInputTest, AnImportWithAnUnreadableMessageNamesIt) {
  const puzzles::Family& family = **puzzles::FindFamily("sudoku");
  const puzzles::Params params = *family.MakeParams(std::map<std::string, std::string>{});
  std::vector<std::string> messages, ids;
  for (uint64_t i = 0; messages.size() < 3; ++i) {
    puzzles::Rng rng = puzzles::CandidateRng(91, i);
    const puzzles::Candidate candidate = family.Generate(rng, params);
    const auto* accepted = std::get_if<puzzles::Accepted>(&candidate);
    if (accepted == nullptr) continue;
    v1::ImportRequest req;
    req.set_line(messages.size() + 1);
    req.mutable_puzzle()->set_family("sudoku");
    req.mutable_puzzle()->set_puzzle_json(accepted->puzzle.dump());
    req.mutable_puzzle()->set_solution_json(accepted->solution.dump());
    messages.push_back(req.SerializeAsString());
    ids.push_back(puzzles::PuzzleId(family, family.CanonicalBytes(accepted->puzzle)));
  }
  messages[1] = std::string("\xff\xff\xff");  // not protobuf

  grpc::GenericStub raw(
      grpc::CreateChannel(cluster_->address(), grpc::InsecureChannelCredentials()));
  auto ctx = Ctx();
  grpc::CompletionQueue cq;
  auto call = raw.PrepareCall(ctx.get(), "/foundry.v1.PuzzleStore/ImportPuzzles", &cq);
  void* tag = nullptr;
  bool ok = false;
  const auto step = [&](intptr_t t) {
    while (cq.Next(&tag, &ok) && tag != reinterpret_cast<void*>(t)) {
    }
  };
  call->StartCall(reinterpret_cast<void*>(1));
  step(1);
  for (const std::string& bytes : messages) {
    grpc::Slice slice(bytes);
    call->Write(grpc::ByteBuffer(&slice, 1), reinterpret_cast<void*>(2));
    step(2);
  }
  call->WritesDone(reinterpret_cast<void*>(3));
  step(3);
  grpc::ByteBuffer response;  // read, or Finish would wait for a reply left unread
  call->Read(&response, reinterpret_cast<void*>(5));
  step(5);
  grpc::Status status;
  call->Finish(&status, reinterpret_cast<void*>(4));
  step(4);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_NE(status.error_message().find(
                "message 2 of the stream is not a valid foundry.v1.ImportRequest"),
            std::string::npos)
      << status.error_message();
  EXPECT_NE(status.error_message().find("the message before it taken in, none after it"),
            std::string::npos)
      << status.error_message();
  EXPECT_TRUE(GetPuzzle(ids[0]).ok()) << "the line before the unreadable one is stored";
  EXPECT_EQ(GetPuzzle(ids[2]).error_code(), grpc::StatusCode::NOT_FOUND);
}

// What a client needs to build a campaign form: each family's own params and
// the goal keys every family takes, which SubmitCampaign then accepts for
// every family (the spec's level field and the same key in params).
TEST_F(BadInputTest, ListFamiliesNamesTheGoalKeysAndEveryFamilyAcceptsThem) {
  v1::ListFamiliesResponse families;
  ASSERT_TRUE(campaigns_->ListFamilies(Ctx().get(), v1::ListFamiliesRequest(), &families).ok());
  ASSERT_EQ(static_cast<size_t>(families.families_size()), puzzles::AllFamilies().size());
  std::vector<std::string> keys;
  for (const auto& g : families.goal_params()) keys.push_back(g.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"level", "min_score", "max_score"}));
  EXPECT_EQ(families.goal_params(0).allowed(), "any|easy|medium|hard|expert");
  for (const auto& f : families.families()) {
    for (const auto& p : f.params()) EXPECT_NE(p.key(), "level") << f.name();
    EXPECT_TRUE(SubmitGoal(f.name(), "expert", {}, {}).ok()) << f.name();
    EXPECT_TRUE(Submit(f.name(), 10, {{"level", "hard"}, {"min_score", "0.5"}}).ok()) << f.name();
  }
}

// PuzzleOfTheDay: a day that is not a day, an unknown family, a family
// with no puzzles, each refused with a message naming it; a real day is
// served afterwards.
TEST_F(BadInputTest, PuzzleOfTheDayRefusesBadDaysAndFamilies) {
  v1::Puzzle out;
  const auto daily = [&](const std::string& family, const std::string& date) {
    v1::PuzzleOfTheDayRequest req;
    req.set_family(family);
    req.set_date(date);
    return store_->PuzzleOfTheDay(Ctx().get(), req, &out);
  };
  const std::vector<Case> cases = {
      {"month 13", [&] { return daily("secret-number", "2026-13-01"); },
       grpc::StatusCode::INVALID_ARGUMENT, "date must be a day as YYYY-MM-DD"},
      {"29 February of a common year", [&] { return daily("secret-number", "2026-02-29"); },
       grpc::StatusCode::INVALID_ARGUMENT, "'2026-02-29'"},
      {"two-digit year", [&] { return daily("secret-number", "26-01-01"); },
       grpc::StatusCode::INVALID_ARGUMENT, "date must be"},
      {"before 1970", [&] { return daily("secret-number", "1969-12-31"); },
       grpc::StatusCode::INVALID_ARGUMENT, "from 1970-01-01"},
      {"after tomorrow", [&] { return daily("secret-number", "2999-01-01"); },
       grpc::StatusCode::INVALID_ARGUMENT, "is after tomorrow (UTC)"},
      {"a time too", [&] { return daily("secret-number", "2026-01-01T00:00"); },
       grpc::StatusCode::INVALID_ARGUMENT, "date must be"},
      {"unknown family", [&] { return daily("chess", "2026-01-01"); },
       grpc::StatusCode::INVALID_ARGUMENT, "chess"},
      {"no family", [&] { return daily("", "2026-01-01"); }, grpc::StatusCode::INVALID_ARGUMENT,
       "family must not be empty"},
      {"a family with no puzzles", [&] { return daily("sudoku", "2026-01-01"); },
       grpc::StatusCode::NOT_FOUND, "family 'sudoku' has no puzzles"},
  };
  for (const Case& c : cases) {
    const grpc::Status s = c.call();
    EXPECT_EQ(s.error_code(), c.code) << c.name << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << c.name << ": " << s.error_message();
  }
  EXPECT_TRUE(daily("secret-number", "2026-02-28").ok());
}

// ExportPlays: a filter that names no family or no player is refused before
// anything is streamed.
TEST_F(BadInputTest, ExportPlaysRefusesBadFilters) {
  const auto export_plays = [&](const std::string& family, const std::string& player) {
    v1::ExportPlaysRequest req;
    req.set_family(family);
    req.set_player_id(player);
    auto ctx = Ctx();
    auto reader = store_->ExportPlays(ctx.get(), req);
    v1::PlayRecord r;
    int n = 0;
    while (reader->Read(&r)) ++n;
    EXPECT_EQ(n, 0) << family << " " << player;
    return reader->Finish();
  };
  const std::vector<Case> cases = {
      {"unknown family", [&] { return export_plays("chess", ""); },
       grpc::StatusCode::INVALID_ARGUMENT, "chess"},
      {"over-long player id", [&] { return export_plays("", std::string(129, 'p')); },
       grpc::StatusCode::INVALID_ARGUMENT, "player_id must be at most 128 bytes, got 129"},
      {"player id with a NUL", [&] { return export_plays("", std::string("a\0b", 3)); },
       grpc::StatusCode::INVALID_ARGUMENT, "player_id must not contain a NUL byte"},
  };
  for (const Case& c : cases) {
    const grpc::Status s = c.call();
    EXPECT_EQ(s.error_code(), c.code) << c.name << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << c.name << ": " << s.error_message();
  }
  EXPECT_TRUE(export_plays("secret-number", "nobody").ok());
}

// Rating constants that cannot work stop the coordinator at start, naming
// the flag, before a store is created.
TEST_F(BadInputTest, BadRatingFlagsAreRefusedAtStart) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> rows = {
      {{"--rating-tau", "0"}, "--rating-tau must be > 0"},
      {{"--rating-tau", "nan"}, "--rating-tau"},
      {{"--rating-deviation-min", "600"}, "--rating-deviation-min (600) must not be above"},
      {{"--rating-deviation-min", "0"}, "--rating-deviation-min must be > 0"},
      {{"--new-rating-deviation", "20"}, "--new-rating-deviation must be within"},
      {{"--new-rating-volatility", "0"}, "--new-rating-volatility must be in (0, 1]"},
      {{"--rating-max-change", "-1"}, "--rating-max-change must be > 0"},
      {{"--new-rating", "inf"}, "--new-rating"},
      {{"--puzzle-rating-per-score", "-100"}, "--puzzle-rating-per-score must be >= 0"},
      {{"--puzzle-rating-center", "abc"}, "--puzzle-rating-center"},
      {{"--new-puzzle-rating-deviation", "20"}, "--new-puzzle-rating-deviation must be within"},
      {{"--new-puzzle-rating-deviation", "nan"}, "--new-puzzle-rating-deviation"},
      {{"--next-puzzle-nearest", "0"}, "--next-puzzle-nearest must be 1..1000, got 0"},
      {{"--next-puzzle-nearest", "1001"}, "--next-puzzle-nearest must be 1..1000, got 1001"},
      {{"--next-puzzle-nearest", "two"}, "--next-puzzle-nearest"},
      {{"--next-puzzle-new-window", "-1"}, "--next-puzzle-new-window must be 0..1000, got -1"},
      {{"--next-puzzle-new-window", "nan"}, "--next-puzzle-new-window"},
  };
  const std::string fresh = dir_.path() + "/never-created";
  for (const auto& [flags, message] : rows) {
    std::vector<std::string> argv = {Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db",
                                     fresh};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto r = RunCommand(argv, std::chrono::seconds(30));
    EXPECT_NE(r.exit_code, 0) << flags[0];
    EXPECT_NE((r.out + r.err).find(message), std::string::npos) << flags[0] << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(fresh)) << flags[0];
  }
}

// Copies of the store, damaged on disk, refused at start with a clear error;
// the damaged copy is left as it was and the original still opens.
TEST_F(BadInputTest, ForeignCorruptOrNewerStoresAreRefusedAndLeftAlone) {
  ASSERT_TRUE(cluster_->StopAll());
  namespace fs = std::filesystem;
  auto copy = [&](const std::string& name) {
    const std::string to = dir_.path() + "/" + name;
    fs::copy(db(), to, fs::copy_options::recursive);
    return to;
  };
  auto start = [&](const std::string& store) {
    return RunCommand({Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db", store},
                      std::chrono::seconds(30));
  };

  // Another schema version: written with RocksDB directly.
  const std::string newer = copy("newer");
  {
    std::vector<std::string> names;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies({}, newer, &names).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
    for (const auto& n : names) cfs.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open({}, newer, cfs, &handles, &raw).ok());
    ASSERT_TRUE(raw->Put({}, "schema_version", "99").ok());
    for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
    delete raw;
  }
  auto r = start(newer);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE((r.out + r.err).find("schema version 99"), std::string::npos) << r.out << r.err;

  // A corrupt store: the MANIFEST that CURRENT names is garbage.
  const std::string corrupt = copy("corrupt");
  std::string manifest;
  for (const auto& e : fs::directory_iterator(corrupt)) {
    if (e.path().filename().string().rfind("MANIFEST-", 0) == 0) manifest = e.path();
  }
  ASSERT_FALSE(manifest.empty());
  { std::ofstream(manifest, std::ios::trunc) << "this is not a manifest"; }
  r = start(corrupt);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE((r.out + r.err).find("data loss"), std::string::npos) << r.out << r.err;

  // A directory of someone else's files.
  const std::string foreign = dir_.path() + "/foreign";
  fs::create_directories(foreign);
  { std::ofstream(foreign + "/notes.txt") << "my notes"; }
  r = start(foreign);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(fs::exists(foreign + "/notes.txt"));
  EXPECT_EQ(std::distance(fs::directory_iterator(foreign), fs::directory_iterator{}), 1)
      << "nothing may be created in a foreign directory";

  // The original is intact and still verifies.
  auto verified = RunCommand({Bin("foundry"), "verify", "--db", db()});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  EXPECT_NE(verified.out.find("300 ok"), std::string::npos) << verified.out;
}

}  // namespace
}  // namespace foundry::testing
