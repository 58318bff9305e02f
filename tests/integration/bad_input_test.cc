// Bad input, table-driven, against a real coordinator over gRPC: every bad
// request gets the right status code and a message a person understands,
// and the stored puzzles are unchanged afterwards.
#include <cmath>
#include <condition_variable>
#include <functional>
#include <mutex>

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "tests/integration/bad_input_fixture.h"

namespace foundry::testing {
namespace {

TEST_F(BadInputTest, EveryBadRequestGetsTheRightCodeAndAClearMessage) {
  const std::string before =
      RunCommand({Bin("foundry"), "export", "--coordinator", cluster_->address()}).out;
  ASSERT_FALSE(before.empty());

  // One campaign that runs (no workers) so that there are real leases to abuse.
  ASSERT_TRUE(Submit("secret-number", 1000, {}, 100).ok());
  const v1::Job job = LeaseJob();
  const std::string some_id = ExportedIds(cluster_->address()).front();
  const uint64_t size = job.end_index() - job.first_index();
  using C = grpc::StatusCode;
  // A campaign of 10 secret-number puzzles with `params`, refused naming `message`.
  const auto bad_params = [this](std::string name, std::map<std::string, std::string> params,
                                 std::string message) {
    return Case{std::move(name), [this, params] { return Submit("secret-number", 10, params); },
                C::INVALID_ARGUMENT, std::move(message)};
  };

  std::vector<Case> cases = {
      {"unknown family", [&] { return Submit("sudokku", 10); }, C::INVALID_ARGUMENT,
       "unknown family 'sudokku'"},
      {"empty family", [&] { return Submit("", 10); }, C::INVALID_ARGUMENT, "unknown family ''"},
      {"count 0", [&] { return Submit("secret-number", 0); }, C::INVALID_ARGUMENT,
       "count must be 1..100000000, got 0"},
      {"count above limit", [&] { return Submit("secret-number", 100000001); }, C::INVALID_ARGUMENT,
       "count must be"},
      {"count 2^64-1", [&] { return Submit("secret-number", UINT64_MAX); }, C::INVALID_ARGUMENT,
       "count must be"},
      bad_params("unknown param", {{"colour", "red"}}, "unknown parameter 'colour' (known: "),
      bad_params("param below range", {{"digits", "1"}}, "'digits' must be 2..6, got '1'"),
      bad_params("param above range", {{"digits", "7"}}, "'digits' must be 2..6"),
      bad_params("param not a number", {{"digits", "three"}}, "got 'three'"),
      bad_params("param empty", {{"digits", ""}}, "'digits' must be"),
      bad_params("param overflow", {{"digits", "99999999999999999999999"}}, "'digits' must be"),
      bad_params("param trailing junk", {{"digits", "3x"}}, "'digits' must be"),
      bad_params("bad bool", {{"allow_redundant", "maybe"}},
                 "'allow_redundant' must be true|false"),
      bad_params("inconsistent params", {{"min_rules", "9"}, {"max_rules", "3"}}, "min_rules"),
      {"job size too big", [&] { return Submit("secret-number", 10, {}, 5'000'000); },
       C::INVALID_ARGUMENT, "job_size must be"},
      {"unknown level", [&] { return SubmitGoal("zebra", "insane", {}, {}); }, C::INVALID_ARGUMENT,
       "level must be any|easy|medium|hard|expert, got 'insane'"},
      {"level param unknown",
       [&] {
         return Submit("balance", 10, {{"level", "hardest"}});
       },
       C::INVALID_ARGUMENT, "level must be any|easy|medium|hard|expert, got 'hardest'"},
      {"score above 1", [&] { return SubmitGoal("sudoku", "", 1.5, {}); }, C::INVALID_ARGUMENT,
       "min_score must be a number in 0..1"},
      {"score range empty", [&] { return SubmitGoal("sudoku", "", 0.8, 0.2); }, C::INVALID_ARGUMENT,
       "min_score 0.8 is above max_score 0.2"},
      {"a level apart from the score range", [&] { return SubmitGoal("zebra", "easy", 0.9, {}); },
       C::INVALID_ARGUMENT, "level easy has scores 0..0.25, none of them in min_score 0.9"},
      {"score not a number",
       [&] {
         return Submit("sudoku", 10, {{"max_score", "high"}});
       },
       C::INVALID_ARGUMENT, "max_score must be a number in 0..1"},
      {"level contradicts params",
       [&] {
         return SubmitGoal("sudoku", "hard", {}, {}, {{"level", "easy"}});
       },
       C::INVALID_ARGUMENT, "give one of them"},
      {"unknown campaign",
       [&] {
         v1::GetCampaignRequest r;
         r.set_campaign_id("c-0000000000000000");
         v1::Campaign c;
         return campaigns_->GetCampaign(Ctx().get(), r, &c);
       },
       C::NOT_FOUND, "no campaign with id 'c-0000000000000000'"},
      {"empty campaign id",
       [&] {
         v1::GetCampaignRequest r;
         v1::Campaign c;
         return campaigns_->GetCampaign(Ctx().get(), r, &c);
       },
       C::NOT_FOUND, "no campaign with id ''"},
      {"cancel unknown campaign",
       [&] {
         v1::CancelCampaignRequest r;
         r.set_campaign_id("nope");
         v1::Campaign c;
         return campaigns_->CancelCampaign(Ctx().get(), r, &c);
       },
       C::NOT_FOUND, "no campaign"},
      {"malformed puzzle id", [&] { return GetPuzzle("xyz"); }, C::INVALID_ARGUMENT,
       "'xyz' is not a puzzle id"},
      {"empty puzzle id", [&] { return GetPuzzle(""); }, C::INVALID_ARGUMENT, "is not a puzzle id"},
      {"uppercase puzzle id", [&] { return GetPuzzle("sn-0123456789ABCDEF0123456789ABCDEF"); },
       C::INVALID_ARGUMENT, "is not a puzzle id"},
      {"puzzle id too long", [&] { return GetPuzzle("sn-0123456789abcdef0123456789abcdef00"); },
       C::INVALID_ARGUMENT, "is not a puzzle id"},
      {"unknown puzzle", [&] { return GetPuzzle("sn-0123456789abcdef0123456789abcdef"); },
       C::NOT_FOUND, "no puzzle with id"},
      {"batch read of no ids", [&] { return GetPuzzles({}); }, C::INVALID_ARGUMENT,
       "ids must hold 1..1000 puzzle ids, got 0"},
      {"batch read of 1001 ids",
       [&] {
         return GetPuzzles(std::vector<std::string>(1001, "sn-0123456789abcdef0123456789abcdef"));
       },
       C::INVALID_ARGUMENT, "got 1001"},
      {"batch read with a malformed id",
       [&] {
         return GetPuzzles({"sn-0123456789abcdef0123456789abcdef", "nope"});
       },
       C::INVALID_ARGUMENT, "'nope' is not a puzzle id"},
      {"page too large", [&] { return Query("", "", 5000, ""); }, C::INVALID_ARGUMENT,
       "page_size must be 1..1000"},
      {"bad page token", [&] { return Query("", "", 10, "not-a-token"); }, C::INVALID_ARGUMENT,
       "invalid page token"},
      {"token of another filter",
       [&] {
         v1::QueryRequest q;
         q.set_page_size(1);
         v1::QueryResponse first;
         store_->QueryPuzzles(Ctx().get(), q, &first);
         return Query("secret-number", "", 10, first.next_page_token());
       },
       C::INVALID_ARGUMENT, "invalid page token"},
      {"level without family", [&] { return Query("", "hard", 10, ""); }, C::INVALID_ARGUMENT,
       "needs a family"},
      {"unknown level", [&] { return Query("secret-number", "impossible", 10, ""); },
       C::INVALID_ARGUMENT, "level must be easy|medium|hard|expert"},
      {"lease without worker id",
       [&] {
         v1::LeaseRequest r;
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::INVALID_ARGUMENT, "worker_id is required"},
      {"lease with a 100,000-byte worker id",
       [&] {
         v1::LeaseRequest r;
         r.set_worker_id(std::string(100000, 'w'));
         r.set_generation_fingerprint(puzzles::GenerationFingerprint());
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::INVALID_ARGUMENT, "worker_id must be at most 256 bytes, got 100000"},
      {"lease with a 1 MB build",  // kept per worker: a liar's way to fill memory
       [&] {
         v1::LeaseRequest r;
         r.set_worker_id("w");
         r.set_build(std::string(1 << 20, 'b'));
         r.set_generation_fingerprint(puzzles::GenerationFingerprint());
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::INVALID_ARGUMENT, "build must be at most 256 bytes, got 1048576"},
      {"lease for a 1 MB campaign id",  // echoed in the error before
       [&] {
         v1::LeaseRequest r;
         r.set_worker_id("w");
         r.set_campaign_id(std::string(1 << 20, 'c'));
         r.set_generation_fingerprint(puzzles::GenerationFingerprint());
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::INVALID_ARGUMENT, "campaign_id must be at most 256 bytes, got 1048576"},
      {"lease with a 1 MB fingerprint",
       [&] {
         v1::LeaseRequest r;
         r.set_worker_id("w");
         r.set_generation_fingerprint(std::string(1 << 20, 'f'));
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::INVALID_ARGUMENT, "generation_fingerprint must be at most 256 bytes, got 1048576"},
      {"heartbeat unknown lease",
       [&] {
         v1::HeartbeatRequest r;
         r.set_lease_id("l-bogus");
         v1::HeartbeatResponse h;
         return workers_->Heartbeat(Ctx().get(), r, &h);
       },
       C::NOT_FOUND, "no lease 'l-bogus'"},
      {"submit unknown lease",
       [&] {
         v1::ResultChunk c;
         c.set_lease_id("l-bogus");
         c.set_last(true);
         return SubmitChunks({c});
       },
       C::NOT_FOUND, "no lease 'l-bogus'"},
      {"submit nothing", [&] { return SubmitChunks({}); }, C::INVALID_ARGUMENT, "empty submission"},
      {"chunks of two leases",
       [&] {
         auto a = Chunk(job, false, 0);
         auto b = Chunk(job, true, size);
         b.set_lease_id("l-other");
         return SubmitChunks({a, b});
       },
       C::INVALID_ARGUMENT, "same lease_id"},
      {"no last chunk", [&] { return SubmitChunks({Chunk(job, false, 0)}); }, C::INVALID_ARGUMENT,
       "before its last chunk"},
      {"wrong candidate count", [&] { return SubmitChunks({Chunk(LeaseJob(), true, size + 1)}); },
       C::INVALID_ARGUMENT, "job stats disagree"},
      {"index outside the job",
       [&] {
         const auto j = LeaseJob();
         auto c = Chunk(j, true, size);
         c.add_puzzles()->set_index(j.end_index());
         return SubmitChunks({c});
       },
       C::INVALID_ARGUMENT, "outside the job's range"},
      {"indices out of order",
       [&] {
         const auto j = LeaseJob();
         auto c = Chunk(j, true, size);
         c.add_puzzles()->set_index(j.first_index() + 5);
         c.add_puzzles()->set_index(j.first_index() + 2);
         return SubmitChunks({c});
       },
       C::INVALID_ARGUMENT, "out of order"},
      {"puzzle without its claimed id",
       [&] {
         const auto j = LeaseJob();
         auto c = Chunk(j, true, size);
         auto* p = c.add_puzzles();
         p->set_index(j.first_index());
         p->mutable_difficulty()->set_level("easy");
         c.mutable_stats()->set_accepted(1);
         return SubmitChunks({c});
       },
       C::INVALID_ARGUMENT, "without its claimed id"},
      {"submission of a quarantined worker",
       [&] {
         const auto j = LeaseJob();
         SubmitChunks({Chunk(j, true, size + 1)});
         v1::LeaseRequest r;
         r.set_worker_id("bad-input-test-" + std::to_string(workers_made_));
         r.set_generation_fingerprint(puzzles::GenerationFingerprint());
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::PERMISSION_DENIED, "is quarantined: sent a malformed generation job"},
      {"lease of another generation fingerprint",
       [&] {
         v1::LeaseRequest r;
         r.set_worker_id("old");
         r.set_generation_fingerprint("00000000deadbeef");
         r.set_build("0.0.1");
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::FAILED_PRECONDITION, "generation fingerprint '00000000deadbeef' (build '0.0.1')"},
      {"lease without a generation fingerprint",
       [&] {
         v1::LeaseRequest r;
         r.set_worker_id("anon");
         v1::LeaseResponse l;
         return workers_->Lease(Ctx().get(), r, &l);
       },
       C::FAILED_PRECONDITION, "generation fingerprint ''"},
      {"oversized message",
       [&] {
         auto c = Chunk(job, true, size);
         c.add_puzzles()->set_puzzle_json(std::string(17 << 20, 'x'));
         return SubmitChunks({c});
       },
       C::RESOURCE_EXHAUSTED, "larger than max"},
      {"sample count 0",
       [&] {
         v1::SampleRequest r;
         return SamplePuzzles(r);
       },
       C::INVALID_ARGUMENT, "count must be 1..1000"},
      {"sample count too big",
       [&] {
         v1::SampleRequest r;
         r.set_count(5000);
         return SamplePuzzles(r);
       },
       C::INVALID_ARGUMENT, "count must be 1..1000"},
      {"score range upside down",
       [&] {
         v1::SampleRequest r;
         r.set_count(1);
         r.mutable_filter()->set_has_score_range(true);
         r.mutable_filter()->set_min_score(0.8);
         r.mutable_filter()->set_max_score(0.2);
         return SamplePuzzles(r);
       },
       C::INVALID_ARGUMENT, "min_score <= max_score"},
      {"score range above 1",
       [&] {
         v1::QueryRequest r;
         r.mutable_filter()->set_has_score_range(true);
         r.mutable_filter()->set_max_score(3);
         return QueryPuzzles(r);
       },
       C::INVALID_ARGUMENT, "max_score <= 1"},
      {"observed without range",
       [&] {
         v1::QueryRequest r;
         r.mutable_filter()->set_use_observed(true);
         return QueryPuzzles(r);
       },
       C::INVALID_ARGUMENT, "use_observed applies to a score range"},
      {"query of an unknown family",
       [&] {
         v1::QueryRequest r;
         r.mutable_filter()->set_family("chess");
         return QueryPuzzles(r);
       },
       C::INVALID_ARGUMENT, "unknown family 'chess' (known: "},
      {"sample of an unknown family",
       [&] {
         v1::SampleRequest r;
         r.set_count(1);
         r.mutable_filter()->set_family("sudoko");
         return SamplePuzzles(r);
       },
       C::INVALID_ARGUMENT, "unknown family 'sudoko'"},
      {"export of an unknown family",
       [&] {
         v1::ExportRequest r;
         r.mutable_filter()->set_family("chess");
         auto ctx = Ctx();
         auto reader = store_->ExportPuzzles(ctx.get(), r);
         v1::Puzzle p;
         while (reader->Read(&p)) {
         }
         return reader->Finish();
       },
       C::INVALID_ARGUMENT, "unknown family 'chess'"},
      {"created range upside down",
       [&] {
         v1::QueryRequest r;
         r.mutable_filter()->set_created_after_unix_ms(2000);
         r.mutable_filter()->set_created_before_unix_ms(1000);
         return QueryPuzzles(r);
       },
       C::INVALID_ARGUMENT, "later than created_before"},
      {"play of unknown puzzle",
       [&] {
         v1::RecordPlayRequest r;
         r.set_id("sn-0123456789abcdef0123456789abcdef");
         return RecordPlay(r);
       },
       C::NOT_FOUND, "no puzzle with id"},
      {"play with malformed id",
       [&] {
         v1::RecordPlayRequest r;
         r.set_id("?");
         return RecordPlay(r);
       },
       C::INVALID_ARGUMENT, "is not a puzzle id"},
      {"play of negative time",
       [&] {
         v1::RecordPlayRequest r;
         r.set_id(some_id);
         r.set_seconds(-1);
         return RecordPlay(r);
       },
       C::INVALID_ARGUMENT, "seconds must be 0..86400"},
      {"play of NaN time",
       [&] {
         v1::RecordPlayRequest r;
         r.set_id(some_id);
         r.set_seconds(std::nan(""));
         return RecordPlay(r);
       },
       C::INVALID_ARGUMENT, "seconds must be 0..86400"},
      {"too many chunks",
       [&] {
         std::vector<v1::ResultChunk> v(1200, Chunk(job, false, 0));
         v.back() = Chunk(job, true, size);
         return SubmitChunks(v);
       },
       C::INVALID_ARGUMENT, "holds more than its job can produce: at most 101 chunks"},
      {"a long stream on an unknown lease, refused at its first chunk",
       [&] {
         v1::ResultChunk c;
         c.set_lease_id("l-bogus");
         return SubmitChunks(std::vector<v1::ResultChunk>(2000, c));
       },
       C::NOT_FOUND, "no lease 'l-bogus'"},
      {"chunks heavier than the job could need",
       [&] {
         // 100 candidates: 16 MiB + 100 * 256 KiB = 41 MiB at most.
         v1::ResultChunk heavy = Chunk(job, false, 0);
         heavy.add_puzzles()->set_puzzle_json(std::string(15 << 20, 'x'));
         return SubmitChunks(std::vector<v1::ResultChunk>(4, heavy));
       },
       C::INVALID_ARGUMENT, "at most 101 chunks and 42991616 bytes"},
  };
  ASSERT_GE(cases.size(), 30u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const grpc::Status s = c.call();
    EXPECT_EQ(s.error_code(), c.code) << s.error_message();
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << "message: " << s.error_message();
  }

  // The lease survived the abuse, and the stored puzzles did not change.
  v1::HeartbeatRequest hb;
  hb.set_lease_id(job.lease_id());
  v1::HeartbeatResponse alive;
  EXPECT_TRUE(workers_->Heartbeat(Ctx().get(), hb, &alive).ok());
  EXPECT_TRUE(alive.keep_going());
  const std::string after =
      RunCommand({Bin("foundry"), "export", "--coordinator", cluster_->address()}).out;
  EXPECT_EQ(after, before);
}

// Requests gRPC cannot read (bytes that are not protobuf, a text field that
// is not UTF-8), sent as raw bytes the way a client in another language can:
// each gets INVALID_ARGUMENT naming the method, not gRPC's empty INTERNAL
// or UNIMPLEMENTED. The CLI refuses such text by the field's name before
// sending it.
TEST_F(BadInputTest, UnreadableRequestsAndNonUtf8TextAreNamed) {
  grpc::GenericStub raw(
      grpc::CreateChannel(cluster_->address(), grpc::InsecureChannelCredentials()));
  const std::string not_utf8_field("\x0a\x01\xff", 3);  // field 1 (a string) = 0xFF
  for (const char* method :
       {"/foundry.v1.CampaignService/GetCampaign", "/foundry.v1.CampaignService/SubmitCampaign",
        "/foundry.v1.PuzzleStore/QueryPuzzles", "/foundry.v1.PuzzleStore/RecordPlay",
        "/foundry.v1.PuzzleStore/NextPuzzle", "/foundry.v1.PuzzleStore/ExportPuzzles",
        "/foundry.v1.WorkerService/Lease"}) {
    for (const std::string& bytes : {std::string("\xff\xff\xff"), not_utf8_field}) {
      SCOPED_TRACE(std::string(method) + " " + std::to_string(bytes.size()) + " bytes");
      grpc::Slice slice(bytes);
      grpc::ByteBuffer request(&slice, 1);
      grpc::ByteBuffer response;
      auto ctx = Ctx();
      grpc::Status status;
      if (std::string(method).ends_with("ExportPuzzles")) {
        grpc::CompletionQueue cq;
        auto call = raw.PrepareCall(ctx.get(), method, &cq);
        void* tag = nullptr;
        bool ok = false;
        call->StartCall(reinterpret_cast<void*>(1));
        cq.Next(&tag, &ok);
        call->Write(request, reinterpret_cast<void*>(2));
        cq.Next(&tag, &ok);
        call->WritesDone(reinterpret_cast<void*>(3));
        cq.Next(&tag, &ok);
        call->Finish(&status, reinterpret_cast<void*>(4));
        while (cq.Next(&tag, &ok) && tag != reinterpret_cast<void*>(4)) {
        }
      } else {
        std::mutex mu;
        std::condition_variable cv;
        bool done = false;
        raw.UnaryCall(ctx.get(), method, grpc::StubOptions(), &request, &response,
                      [&](grpc::Status s) {
                        std::lock_guard lock(mu);
                        status = std::move(s);
                        done = true;
                        cv.notify_one();
                      });
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return done; });
      }
      EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
      EXPECT_NE(status.error_message().find(std::string("not a valid message for ") + method),
                std::string::npos)
          << status.error_message();
    }
  }

  auto status = RunCommand(
      {Bin("foundry"), "campaign", "status", "--coordinator", cluster_->address(), "c-\xff"});
  EXPECT_EQ(status.exit_code, 1);
  EXPECT_NE(status.err.find("campaign_id is not valid UTF-8 text"), std::string::npos)
      << status.err;
  auto exported = RunCommand(
      {Bin("foundry"), "export", "--coordinator", cluster_->address(), "--campaign", "c-\xff"});
  EXPECT_EQ(exported.exit_code, 1);
  EXPECT_NE(exported.err.find("filter.campaign_id is not valid UTF-8 text"), std::string::npos)
      << exported.err;
}

}  // namespace
}  // namespace foundry::testing
