// What the players' integration tests share: a store filled by `foundry
// run`, a real coordinator over it on 127.0.0.1, a PuzzleStore stub, and
// the right answer as the family itself writes it.
#pragma once

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "foundry/v1/store.grpc.pb.h"
#include "puzzles/family.h"
#include "puzzles/registry.h"
#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {

// A client context with a 30-second deadline.
inline std::unique_ptr<grpc::ClientContext> Ctx() {
  auto c = std::make_unique<grpc::ClientContext>();
  c->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  return c;
}

// Writes an admin, a reader and a worker token into `dir` (owner-only, as
// the coordinator demands) and adds the flags naming them to *args.
// Returns the tokens by role.
inline std::map<std::string, std::string> WriteRoleTokens(const std::string& dir,
                                                          std::vector<std::string>* args) {
  std::map<std::string, std::string> tokens = {{"admin", "admin-secret-0123456789"},
                                               {"reader", "reader-secret-0123456789"},
                                               {"worker", "worker-secret-0123456789"}};
  for (const auto& [role, token] : tokens) {
    const std::string path = dir + "/" + role + ".token";
    std::ofstream(path) << token << "\n";
    std::filesystem::permissions(
        path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
        std::filesystem::perm_options::replace);
    args->insert(args->end(), {"--" + role + "-token-file", path});
  }
  return tokens;
}

class PlayersFixture : public ::testing::Test {
 protected:
  // Stores `count` puzzles of `family` drawn from `seed`, by `foundry run`.
  void Fill(const std::string& family, uint64_t count, uint64_t seed) {
    auto run =
        RunCommand({Bin("foundry"), "run", "--family", family, "--count", std::to_string(count),
                    "--seed", std::to_string(seed), "--db", db(), "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  // Starts a coordinator on the store (with extra flags `args`) and connects.
  void Serve(std::vector<std::string> args = {}) {
    cluster_ = std::make_unique<LocalCluster>(db(), dir_.path(), 0, 1, 2.0, std::move(args));
    ASSERT_TRUE(cluster_->ok()) << cluster_->CoordinatorLog();
    Connect();
  }
  void Connect() {
    stub_ = foundry::v1::PuzzleStore::NewStub(
        grpc::CreateChannel(cluster_->address(), grpc::InsecureChannelCredentials()));
  }
  // Serves 2 secret-number puzzles (seed 3) behind an admin, a reader and a
  // worker token; returns the tokens by role.
  std::map<std::string, std::string> ServeWithRoleTokens() {
    Fill("secret-number", 2, 3);
    std::vector<std::string> args;
    std::map<std::string, std::string> tokens = WriteRoleTokens(dir_.path(), &args);
    Serve(std::move(args));
    return tokens;
  }
  // The stored ids, in export order, into ids_; `count` of them expected.
  void LoadIds(size_t count) {
    ids_ = ExportedIds(cluster_->address());
    ASSERT_EQ(ids_.size(), count);
  }
  std::string db() const { return dir_.path() + "/db"; }

  foundry::v1::Puzzle Get(const std::string& id) {
    foundry::v1::GetPuzzleRequest req;
    req.set_id(id);
    req.set_include_solution(true);
    foundry::v1::Puzzle p;
    EXPECT_TRUE(stub_->GetPuzzle(Ctx().get(), req, &p).ok());
    return p;
  }
  // The right answer as a player types it, by the family itself.
  std::string RightAnswer(const std::string& id) {
    const foundry::v1::Puzzle p = Get(id);
    auto family = puzzles::FindFamily(p.family());
    EXPECT_TRUE(family.ok());
    return (*family)->FormatAnswer(nlohmann::json::parse(p.puzzle_json()),
                                   nlohmann::json::parse(p.solution_json()));
  }
  // A judged play of `id` by `player`, which must succeed.
  foundry::v1::RecordPlayResponse Play(const std::string& id, const std::string& player,
                                       const std::string& answer, const std::string& play_id = "") {
    foundry::v1::RecordPlayRequest req;
    req.set_id(id);
    req.set_seconds(play_seconds_);
    req.set_player_id(player);
    req.set_answer(answer);
    req.set_play_id(play_id);
    foundry::v1::RecordPlayResponse out;
    grpc::Status s = stub_->RecordPlay(Ctx().get(), req, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }

  double play_seconds_ = 3;  // the seconds Play() reports
  TempDir dir_;
  std::unique_ptr<LocalCluster> cluster_;
  std::unique_ptr<foundry::v1::PuzzleStore::Stub> stub_;
  std::vector<std::string> ids_;
};

}  // namespace foundry::testing
