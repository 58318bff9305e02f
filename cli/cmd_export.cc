// foundry export / foundry get: read puzzles from a store directory or from a
// coordinator, as JSON Lines or plain text; export --plays writes the
// players' results instead (cmd_export_plays.cc).
#include <fmt/format.h>

#include "cli/client.h"
#include "cli/commands.h"
#include "cli/filter_flags.h"
#include "cli/play_export.h"
#include "cli/puzzle_json.h"
#include "cli/puzzle_source.h"
#include "cli/stdout_lines.h"
#include "coordinator/services.h"
#include "foundry/v1/store.grpc.pb.h"
#include "puzzles/family.h"
#include "puzzles/puzzle_id.h"
#include "storage/store.h"

namespace foundry::cli {
namespace {

struct ExportFlags {
  SourceFlags source;
  FilterFlags filter;
  std::string format = "jsonl";
  uint64_t limit = 0;
  bool no_solution = false;
  bool plays = false;  // the players' results instead of puzzles
  std::string player;  // with --plays: one player's
};

// export --plays: the flags of puzzles refused, the rest handed over.
int ExportPlaysOf(const ExportFlags& f) {
  const FilterFlags& q = f.filter;
  if (!q.level.empty() || !q.campaign.empty() || q.min_score || q.max_score || q.observed ||
      !q.created_after.empty() || !q.created_before.empty() || f.no_solution ||
      f.format != "jsonl") {
    return Fail(
        "export --plays takes --family, --player and --limit only (plays are written as JSON "
        "Lines)");
  }
  return ExportPlays(PlayExportFlags{.db = f.source.db,
                                     .coordinator = f.source.coordinator,
                                     .family = q.family,
                                     .player = f.player,
                                     .limit = f.limit});
}

// Writes puzzles to stdout in the chosen format, buffered.
class Printer {
 public:
  explicit Printer(std::string format) : format_(std::move(format)) {
    if (format_ == "csv") lines_.Add(PuzzleCsvHeader());
  }
  void Print(const foundry::v1::Puzzle& p) {
    if (format_ == "text") {
      lines_.Add(PuzzleToText(p));
    } else if (format_ == "csv") {
      lines_.Add(PuzzleToCsvRow(p));
    } else {
      lines_.Add(PuzzleToJson(p).dump());
    }
  }

 private:
  std::string format_;
  StdoutLines lines_;
};

int Export(const ExportFlags& given) {
  ExportFlags f = given;
  f.source.db = DbOrDefault(given.source.db, given.source.coordinator);
  if (f.plays) return ExportPlaysOf(f);
  if (!f.player.empty()) return Fail("--player goes with --plays");
  if (f.source.db.empty() == f.source.coordinator.empty()) {
    return Fail("export needs " + NoStoreGiven());
  }
  auto filter = ToFilter(f.filter);
  if (!filter.ok()) return Fail(filter.status().message());
  Printer out(f.format);
  if (!f.source.db.empty()) {
    storage::StoreOptions opts;
    opts.create_if_missing = false;
    auto store = storage::Store::Open(f.source.db, opts);
    if (!store.ok()) return Fail(store.status().ToString());
    auto done = (*store)->Scan(coordinator::ToStorageFilter(*filter), "", f.limit,
                               [&](const foundry::v1::Puzzle& p) {
                                 foundry::v1::Puzzle copy = p;
                                 if (f.no_solution) copy.clear_solution_json();
                                 coordinator::SetObservedLevel(copy.mutable_observed());
                                 out.Print(copy);
                                 return true;
                               });
    if (!done.ok()) return Fail(done.status().ToString());
    return 0;
  }
  auto stub = foundry::v1::PuzzleStore::NewStub(Connect(f.source.coordinator));
  foundry::v1::ExportRequest req;
  *req.mutable_filter() = *filter;
  req.set_limit(f.limit);
  req.set_include_solution(!f.no_solution);
  if (Status text = CheckUtf8Fields(req); !text.ok()) return Fail(text.message());
  auto ctx = CallContext(std::chrono::hours(24));
  auto reader = stub->ExportPuzzles(ctx.get(), req);
  foundry::v1::Puzzle p;
  while (reader->Read(&p)) out.Print(p);
  grpc::Status s = reader->Finish();
  if (!s.ok()) return Fail(DescribeRpcError(s, f.source.coordinator));
  return 0;
}

struct GetFlags {
  SourceFlags source;
  std::string id;
  bool text = false;
  bool no_solution = false;
};

int Get(const GetFlags& f) {
  if (Status bad = puzzles::CheckPuzzleId(f.id); !bad.ok()) return Fail(bad.message());
  auto source = PuzzleSource::Open(f.source);
  if (!source.ok()) return Fail(source.status().message());
  auto p = (*source)->Get(f.id, !f.no_solution);
  if (!p.ok()) return Fail(p.status().message());
  Printer out(f.text ? "text" : "jsonl");
  out.Print(*p);
  return 0;
}

}  // namespace

void AddExportCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<ExportFlags>();
  CLI::App* cmd = app.add_subcommand("export", "Write stored puzzles as JSON Lines (or text)");
  AddSourceFlags(*cmd, f->source);
  AddFilterFlags(*cmd, f->filter);
  cmd->add_option("--limit", f->limit, "At most this many puzzles (0: all)");
  cmd->add_option("--format", f->format, "jsonl, csv or text")
      ->check(CLI::IsMember({"jsonl", "csv", "text"}));
  cmd->add_flag("--no-solution", f->no_solution, "Leave the solutions out");
  cmd->add_flag("--plays", f->plays,
                "Write the players' results instead: one JSON line per recorded play with a "
                "player (admin token; docs/players.md)");
  cmd->add_option("--player", f->player, "With --plays: only this player's plays");
  cmd->callback([f, &exit_code] { exit_code = Export(*f); });
}

void AddGetCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<GetFlags>();
  CLI::App* cmd = app.add_subcommand("get", "Print one puzzle by id");
  cmd->add_option("id", f->id, "Puzzle id, e.g. sn-0123…")->required();
  AddSourceFlags(*cmd, f->source);
  cmd->add_flag("--text", f->text, "Plain text instead of JSON");
  cmd->add_flag("--no-solution", f->no_solution, "Leave the solution out");
  cmd->callback([f, &exit_code] { exit_code = Get(*f); });
}

}  // namespace foundry::cli
