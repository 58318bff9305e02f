// foundry players refit: fits each family's grade -> rating mapping from
// observed plays, through a coordinator (PuzzleStore.RefitRatings, admin) or
// on a stopped store (--db). foundry daily: the puzzle of the day of a
// family. docs/players.md.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/puzzle_source.h"
#include "puzzles/family.h"
#include "puzzles/registry.h"

namespace foundry::cli {
namespace {

struct RefitFlags {
  SourceFlags source;
  uint64_t min_judged_plays = 20;
  uint64_t min_puzzles = 10;
};

std::string Mapping(const foundry::v1::GradeMapping& m) {
  return fmt::format("{:.0f} + {:.0f}·(score − 0.5){}", m.center(), m.per_score(),
                     m.fitted() ? "" : " (default)");
}

int Refit(const RefitFlags& f) {
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  foundry::v1::RefitRatingsRequest req;
  req.set_min_judged_plays(f.min_judged_plays);
  req.set_min_puzzles(f.min_puzzles);
  auto done = (*source)->RefitRatings(req);
  if (!done.ok()) return Fail(done.status().message());
  if (done->families().empty()) fmt::print("The store has no puzzles: nothing to fit.\n");
  for (const auto& r : done->families()) {
    if (!r.refitted()) {
      fmt::print("{}: {} puzzles with ≥ {} judged plays, fewer than {}: kept {}", r.family(),
                 r.puzzles(), f.min_judged_plays, f.min_puzzles, Mapping(r.before()));
      if (r.puzzles() > 0) {
        fmt::print("; mean |initial − rating| {:.1f}", r.mean_abs_error_before());
      }
      fmt::print("\n");
      continue;
    }
    fmt::print("{}: {} puzzles; {} → {}; mean |initial − rating| {:.1f} → {:.1f}\n", r.family(),
               r.puzzles(), Mapping(r.before()), Mapping(r.after()), r.mean_abs_error_before(),
               r.mean_abs_error_after());
  }
  return 0;
}

struct DailyFlags {
  SourceFlags source;
  std::string family;
  std::string date;
};

int Daily(const DailyFlags& f) {
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  foundry::v1::PuzzleOfTheDayRequest req;
  req.set_family(f.family);
  req.set_date(f.date);
  auto p = (*source)->PuzzleOfTheDay(req);
  if (!p.ok()) return Fail(p.status().message());
  auto family = puzzles::FindFamily(p->family());
  if (!family.ok()) return Fail(family.status().message());
  const nlohmann::json puzzle = nlohmann::json::parse(p->puzzle_json(), nullptr, false);
  if (puzzle.is_discarded()) return Fail(fmt::format("puzzle {} is not JSON", p->id()));
  fmt::print("Puzzle of the day{}: {} · {} · {} (score {:.2f})\n\n{}\n\n{}\n",
             f.date.empty() ? "" : " of " + f.date, p->id(), p->family(), p->difficulty().level(),
             p->difficulty().score(), (*family)->RenderText(puzzle),
             (*family)->AnswerPrompt(puzzle));
  return 0;
}

}  // namespace

void AddPlayersCommand(CLI::App& app, int& exit_code) {
  CLI::App* players = app.add_subcommand("players", "Players' ratings (docs/players.md)");
  players->require_subcommand(1);
  auto f = std::make_shared<RefitFlags>();
  CLI::App* refit = players->add_subcommand(
      "refit",
      "Fit each family's grade → rating mapping of new puzzles from the current ratings of "
      "well-played puzzles (admin token with --coordinator)");
  AddSourceFlags(*refit, f->source);
  refit
      ->add_option("--min-judged-plays", f->min_judged_plays,
                   "Use puzzles with at least this many judged plays")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))
      ->capture_default_str();
  refit
      ->add_option("--min-puzzles", f->min_puzzles,
                   "Refit a family only from at least this many such puzzles")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))
      ->capture_default_str();
  refit
      ->add_option("--puzzle-rating-center", f->source.ratings.grade.center,
                   "With --db: the default mapping's center (a coordinator uses its own flag)")
      ->capture_default_str();
  refit
      ->add_option("--puzzle-rating-per-score", f->source.ratings.grade.per_score,
                   "With --db: the default mapping's per_score")
      ->capture_default_str();
  refit->callback([f, &exit_code] { exit_code = Refit(*f); });
}

void AddDailyCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<DailyFlags>();
  CLI::App* cmd = app.add_subcommand(
      "daily", "Show the puzzle of the day of a family: the same for everyone on a UTC day");
  AddSourceFlags(*cmd, f->source);
  cmd->add_option("--family", f->family, "The family")->required();
  cmd->add_option("--date", f->date, "The day, YYYY-MM-DD (UTC); default today");
  cmd->callback([f, &exit_code] { exit_code = Daily(*f); });
}

}  // namespace foundry::cli
