// foundry show / foundry play: one stored puzzle for a person. `show` prints
// it (and writes the family's SVG drawing); `play` is a terminal session that
// takes the answer in the family's natural form, says right or wrong and
// records the play (solved or not, and the time taken) in the store.
#include <chrono>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/player_session.h"
#include "cli/puzzle_json.h"
#include "cli/puzzle_source.h"
#include "puzzles/family.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace foundry::cli {
namespace {

// A stored puzzle with its family and parsed JSON.
struct Loaded {
  foundry::v1::Puzzle record;
  const puzzles::Family* family = nullptr;
  nlohmann::json puzzle, solution;
};

Result<Loaded> Load(PuzzleSource& source, const std::string& id) {
  FOUNDRY_RETURN_IF_ERROR(puzzles::CheckPuzzleId(id));
  Loaded out;
  auto p = source.Get(id, /*include_solution=*/true);
  if (!p.ok()) return p.status();
  out.record = std::move(*p);
  auto family = puzzles::FindFamily(out.record.family());
  if (!family.ok()) {
    return Status::FailedPrecondition(fmt::format(
        "puzzle {} is of family '{}', which this build does not have", id, out.record.family()));
  }
  out.family = *family;
  out.puzzle = nlohmann::json::parse(out.record.puzzle_json(), nullptr, false);
  out.solution = nlohmann::json::parse(out.record.solution_json(), nullptr, false);
  if (out.puzzle.is_discarded() || out.solution.is_discarded()) {
    return Status::DataLoss(fmt::format("puzzle {} has a stored record that is not JSON", id));
  }
  return out;
}

std::string Describe(const foundry::v1::Puzzle& p) {
  const auto& o = p.observed();
  std::string line = fmt::format("{} · {} · {} (score {:.2f})", p.id(), p.family(),
                                 p.difficulty().level(), p.difficulty().score());
  if (o.plays() > 0) {
    line += fmt::format(" · players: {} solved, {} failed → observed {} ({:.2f})",
                        p.plays().solved(), p.plays().failed(), o.level(), o.score());
  }
  return line;
}

struct ShowFlags {
  SourceFlags source;
  std::string id;
  bool solution = false;
  std::string svg;
};

int Show(const ShowFlags& f) {
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  auto loaded = Load(**source, f.id);
  if (!loaded.ok()) return Fail(loaded.status().message());
  fmt::print("{}\n\n{}\n", Describe(loaded->record), loaded->family->RenderText(loaded->puzzle));
  if (f.solution) {
    fmt::print("\nAnswer: {}\n", loaded->family->FormatAnswer(loaded->puzzle, loaded->solution));
  }
  if (!f.svg.empty()) {
    const std::string svg =
        loaded->family->RenderSvg(loaded->puzzle, f.solution ? &loaded->solution : nullptr);
    std::ofstream out(f.svg, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(svg.data(), static_cast<std::streamsize>(svg.size()))) {
      return Fail(fmt::format("cannot write {}", f.svg));
    }
    fmt::print("\nwrote {} ({} bytes)\n", f.svg, svg.size());
  }
  return 0;
}

struct PlayFlags {
  SourceFlags source;
  std::string id;
  // With a player: a rated round chosen by the store (player_session.h).
  std::string player;
  std::string family;
  double offset = 0;
};

int Play(const PlayFlags& f) {
  if (!f.player.empty() || !f.family.empty()) {
    if (!f.id.empty()) return Fail("give a puzzle id, or --player and --family, not both");
    if (f.player.empty() || f.family.empty()) return Fail("--player and --family go together");
    return PlayAsPlayer(PlayerSessionFlags{f.source, f.player, f.family, f.offset});
  }
  if (f.id.empty()) return Fail("give a puzzle id, or --player NAME --family F");
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  auto loaded = Load(**source, f.id);
  if (!loaded.ok()) return Fail(loaded.status().message());
  const puzzles::Family& family = *loaded->family;
  fmt::print("{}\n\n{}\n\n{}\n(Type \"give up\" to see the answer; that counts as not solved.)\n",
             Describe(loaded->record), family.RenderText(loaded->puzzle),
             family.AnswerPrompt(loaded->puzzle));
  const auto start = std::chrono::steady_clock::now();
  std::string line;
  bool solved = false;
  while (true) {
    fmt::print("> ");
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) {
      fmt::print("\nNo answer; nothing recorded.\n");
      return 1;
    }
    if (line == "give up" || line == "giveup") break;
    auto verdict = family.CheckAnswer(loaded->puzzle, loaded->solution, line);
    if (!verdict.ok()) {
      // Not an answer at all (a typo): say why and let the player retype.
      fmt::print("{}\n", verdict.status().message());
      continue;
    }
    solved = *verdict;
    break;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (solved) {
    fmt::print("Right! Solved in {:.0f} s.\n", seconds);
  } else {
    fmt::print("Not right. The answer: {}\n",
               family.FormatAnswer(loaded->puzzle, loaded->solution));
  }
  auto recorded = (*source)->RecordPlay(f.id, solved, std::min(seconds, 86400.0));
  if (!recorded.ok()) return Fail("the play was not recorded: " + recorded.status().message());
  fmt::print("Recorded. Players so far: {} solved, {} failed; observed difficulty {} ({:.2f}).\n",
             recorded->plays().solved(), recorded->plays().failed(), recorded->observed().level(),
             recorded->observed().score());
  return solved ? 0 : 2;
}

}  // namespace

void AddShowCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<ShowFlags>();
  CLI::App* cmd = app.add_subcommand("show", "Print a puzzle as text; draw it as SVG");
  cmd->add_option("id", f->id, "Puzzle id")->required();
  AddSourceFlags(*cmd, f->source);
  cmd->add_flag("--solution", f->solution, "Show the answer too");
  cmd->add_option("--svg", f->svg, "Also write the family's drawing of it to this SVG file");
  cmd->callback([f, &exit_code] { exit_code = Show(*f); });
}

void AddPlayCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<PlayFlags>();
  CLI::App* cmd = app.add_subcommand(
      "play", "Solve a puzzle at the terminal; the result is recorded (exit 0 solved, 2 not)");
  cmd->add_option("id", f->id, "Puzzle id (or --player and --family)");
  AddSourceFlags(*cmd, f->source);
  cmd->add_option("--player", f->player,
                  "Play as this player: the store picks the next puzzle and rates the answer")
      ->check(NotEmpty());
  cmd->add_option("--family", f->family, "With --player: the family to play")->check(NotEmpty());
  cmd->add_option("--offset", f->offset, "With --player: aim this far above (or below) your rating")
      ->check(CLI::Range(-1000.0, 1000.0));
  // With --db the ratings are computed here: the same constants as a
  // coordinator's flags (a coordinator uses its own).
  coordinator::AddRatingFlags(*cmd, f->source.ratings);
  cmd->callback([f, &exit_code] { exit_code = Play(*f); });
}

}  // namespace foundry::cli
