// PuzzleSource: where `foundry get|sample|stats|show|play|import` read and
// write puzzles: a store directory opened in this process (--db) or a
// coordinator (--coordinator). The local path runs the coordinator's own
// store service handlers, so both paths validate and answer alike.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/status.h"
#include "coordinator/rating_settings.h"
#include "foundry/v1/store.pb.h"

namespace foundry::cli {

struct SourceFlags {
  std::string db;
  std::string coordinator;
  // With --db: rate with these constants (a coordinator uses its own flags).
  coordinator::RatingSettings ratings;
};

// Adds --db and --coordinator (mutually exclusive) to `cmd`.
void AddSourceFlags(CLI::App& cmd, SourceFlags& flags);

class PuzzleSource {
 public:
  // Opens the source the flags name; InvalidArgument unless exactly one is
  // given, or the store's own error (e.g. another process has it open).
  static Result<std::unique_ptr<PuzzleSource>> Open(const SourceFlags& flags);
  virtual ~PuzzleSource() = default;

  virtual Result<foundry::v1::Puzzle> Get(const std::string& id, bool include_solution) = 0;
  virtual Result<foundry::v1::SampleResponse> Sample(const foundry::v1::SampleRequest& req) = 0;
  virtual Result<foundry::v1::StatsResponse> Stats() = 0;
  virtual Result<foundry::v1::RecordPlayResponse> RecordPlay(const std::string& id, bool solved,
                                                             double seconds) = 0;
  // RecordPlay with every field (a player, an answer, a play_id).
  virtual Result<foundry::v1::RecordPlayResponse> Play(
      const foundry::v1::RecordPlayRequest& req) = 0;
  // The player's figures in a family (docs/players.md).
  virtual Result<foundry::v1::Player> GetPlayer(const foundry::v1::GetPlayerRequest& req) = 0;
  // The next puzzle for a player (docs/players.md).
  virtual Result<foundry::v1::Puzzle> NextPuzzle(const foundry::v1::NextPuzzleRequest& req) = 0;
  // The puzzle of the day of a family (docs/players.md).
  virtual Result<foundry::v1::Puzzle> PuzzleOfTheDay(
      const foundry::v1::PuzzleOfTheDayRequest& req) = 0;
  // Refits the families' grade -> rating mappings (admin; docs/players.md).
  virtual Result<foundry::v1::RefitRatingsResponse> RefitRatings(
      const foundry::v1::RefitRatingsRequest& req) = 0;
  // Sends every request of `items` as one import.
  virtual Result<foundry::v1::ImportResponse> Import(
      const std::vector<foundry::v1::ImportRequest>& items) = 0;
};

}  // namespace foundry::cli
