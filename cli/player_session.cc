#include "cli/player_session.h"

#include <chrono>
#include <iostream>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "puzzles/family.h"
#include "puzzles/registry.h"

namespace foundry::cli {
namespace {

// A play_id unique to this round, so that a retried RecordPlay counts once.
std::string NewPlayId() {
  std::random_device rd;
  return fmt::format("cli-{:016x}{:08x}", (static_cast<uint64_t>(rd()) << 32) | rd(), rd());
}

}  // namespace

int PlayAsPlayer(const PlayerSessionFlags& f) {
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  foundry::v1::GetPlayerRequest who;
  who.set_player_id(f.player);
  who.set_family(f.family);
  auto before = (*source)->GetPlayer(who);
  if (!before.ok()) return Fail(before.status().message());
  foundry::v1::NextPuzzleRequest next;
  next.set_player_id(f.player);
  next.set_family(f.family);
  next.set_offset(f.offset);
  auto record = (*source)->NextPuzzle(next);
  if (!record.ok()) return Fail(record.status().message());
  auto family = puzzles::FindFamily(record->family());
  if (!family.ok()) return Fail(family.status().message());
  const nlohmann::json puzzle = nlohmann::json::parse(record->puzzle_json(), nullptr, false);
  if (puzzle.is_discarded()) return Fail(fmt::format("puzzle {} is not JSON", record->id()));
  fmt::print("{}: rating {:.0f} ± {:.0f} in {} ({} plays, {} solved)\n\n{} · {}\n\n{}\n\n{}\n",
             f.player, before->rating(), before->deviation(), f.family, before->plays(),
             before->solves(), record->id(), record->difficulty().level(),
             (*family)->RenderText(puzzle), (*family)->AnswerPrompt(puzzle));
  const auto start = std::chrono::steady_clock::now();
  const std::string play_id = NewPlayId();
  std::string line;
  while (true) {
    fmt::print("> ");
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) {
      fmt::print("\nNo answer; nothing recorded (the puzzle counts as served).\n");
      return 1;
    }
    const double seconds = std::min(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 86400.0);
    foundry::v1::RecordPlayRequest play;
    play.set_id(record->id());
    play.set_player_id(f.player);
    play.set_answer(line);
    play.set_play_id(play_id);
    play.set_seconds(seconds);
    auto result = (*source)->Play(play);
    if (!result.ok()) {
      // A typo is refused by the store and records nothing: retype.
      if (result.status().code() == Status::Code::kInvalidArgument) {
        fmt::print("{}\n", result.status().message());
        continue;
      }
      return Fail("the play was not recorded: " + result.status().message());
    }
    fmt::print("{} Rating {:.0f} → {:.0f} ({:+.0f}){}; the puzzle is now rated {:.0f}.\n",
               result->solved() ? fmt::format("Right! Solved in {:.0f} s.", seconds) : "Not right.",
               before->rating(), result->player().rating(), result->player_rating_change(),
               result->rated()          ? ""
               : result->opened_by_id() ? " (not rated: the puzzle was not served to you)"
                                        : " (not rated: you had played it before)",
               result->puzzle_rating());
    if (result->has_answer_score()) {
      // A family whose answers have points: how this one compares.
      const auto& a = result->answer_score();
      fmt::print(
          "Your answer scores {:g} (target {:g}, the simple strategy {:g}, the generator's "
          "best {:g}); {}.\n",
          a.score(), a.target_score(), a.greedy_score(), a.best_score(),
          result->new_best() ? "the best any player has given"
                             : fmt::format("the best so far is {:g}, by {}",
                                           result->best_solution().score().score(),
                                           result->best_solution().player_id()));
    }
    if (!result->solved()) {
      // The round is over (recorded): the answer may be shown now.
      auto full = (*source)->Get(record->id(), /*include_solution=*/true);
      const nlohmann::json solution =
          full.ok() ? nlohmann::json::parse(full->solution_json(), nullptr, false)
                    : nlohmann::json();
      if (full.ok() && !solution.is_discarded()) {
        fmt::print("The answer: {}\n", (*family)->FormatAnswer(puzzle, solution));
      }
    }
    return result->solved() ? 0 : 2;
  }
}

}  // namespace foundry::cli
