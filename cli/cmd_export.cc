// foundry export / foundry get: read puzzles from a store directory or from a
// coordinator, as JSON Lines or plain text.
#include <fmt/format.h>

#include "cli/client.h"
#include "cli/commands.h"
#include "cli/puzzle_json.h"
#include "foundry/v1/store.grpc.pb.h"
#include "puzzles/family.h"
#include "puzzles/puzzle_id.h"
#include "storage/store.h"

namespace foundry::cli {
namespace {

struct SourceFlags {
  std::string db;
  std::string coordinator;
};

void AddSourceFlags(CLI::App& cmd, SourceFlags& f) {
  auto* db = cmd.add_option("--db", f.db, "Read this store directory");
  auto* co = cmd.add_option("--coordinator", f.coordinator, "Read from this coordinator (host:port)");
  db->excludes(co);
  co->excludes(db);
}

struct ExportFlags {
  SourceFlags source;
  std::string family, level, campaign, format = "jsonl";
  uint64_t limit = 0;
  bool no_solution = false;
};

// Writes puzzles to stdout in the chosen format, buffered.
class Printer {
 public:
  explicit Printer(bool text) : text_(text) {}
  ~Printer() { Flush(); }
  void Print(const foundry::v1::Puzzle& p) {
    if (text_) {
      buffer_ += PuzzleToText(p);
      buffer_ += '\n';
    } else {
      buffer_ += PuzzleToJson(p).dump();
      buffer_ += '\n';
    }
    if (buffer_.size() > (1 << 20)) Flush();
  }
  void Flush() {
    std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
    buffer_.clear();
    std::fflush(stdout);
  }

 private:
  bool text_;
  std::string buffer_;
};

int Export(const ExportFlags& f) {
  if (f.source.db.empty() == f.source.coordinator.empty()) {
    return Fail("export needs exactly one of --db DIR or --coordinator ADDR");
  }
  if (!f.level.empty() && !puzzles::IsLevel(f.level)) {
    return Fail(fmt::format("--level must be easy|medium|hard|expert, got '{}'", f.level));
  }
  if (!f.level.empty() && f.family.empty()) return Fail("--level needs --family");
  Printer out(f.format == "text");
  if (!f.source.db.empty()) {
    storage::StoreOptions opts;
    opts.create_if_missing = false;
    auto store = storage::Store::Open(f.source.db, opts);
    if (!store.ok()) return Fail(store.status().ToString());
    auto done = (*store)->Scan({f.family, f.level, f.campaign}, "", f.limit,
                               [&](const foundry::v1::Puzzle& p) {
                                 if (f.no_solution) {
                                   foundry::v1::Puzzle copy = p;
                                   copy.clear_solution_json();
                                   out.Print(copy);
                                 } else {
                                   out.Print(p);
                                 }
                                 return true;
                               });
    if (!done.ok()) return Fail(done.status().ToString());
    return 0;
  }
  auto stub = foundry::v1::PuzzleStore::NewStub(Connect(f.source.coordinator));
  foundry::v1::ExportRequest req;
  req.mutable_filter()->set_family(f.family);
  req.mutable_filter()->set_level(f.level);
  req.mutable_filter()->set_campaign_id(f.campaign);
  req.set_limit(f.limit);
  req.set_include_solution(!f.no_solution);
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
};

int Get(const GetFlags& f) {
  if (f.source.db.empty() == f.source.coordinator.empty()) {
    return Fail("get needs exactly one of --db DIR or --coordinator ADDR");
  }
  if (!puzzles::LooksLikePuzzleId(f.id)) {
    return Fail(fmt::format("'{}' is not a puzzle id (a prefix, '-' and 32 hex digits)", f.id));
  }
  foundry::v1::Puzzle p;
  if (!f.source.db.empty()) {
    storage::StoreOptions opts;
    opts.create_if_missing = false;
    auto store = storage::Store::Open(f.source.db, opts);
    if (!store.ok()) return Fail(store.status().ToString());
    auto got = (*store)->GetPuzzle(f.id);
    if (!got.ok()) return Fail(got.status().message());
    p = std::move(*got);
  } else {
    auto stub = foundry::v1::PuzzleStore::NewStub(Connect(f.source.coordinator));
    foundry::v1::GetPuzzleRequest req;
    req.set_id(f.id);
    req.set_include_solution(true);
    auto ctx = CallContext();
    grpc::Status s = stub->GetPuzzle(ctx.get(), req, &p);
    if (!s.ok()) return Fail(DescribeRpcError(s, f.source.coordinator));
  }
  Printer out(f.text);
  out.Print(p);
  return 0;
}

}  // namespace

void AddExportCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<ExportFlags>();
  CLI::App* cmd = app.add_subcommand("export", "Write stored puzzles as JSON Lines (or text)");
  AddSourceFlags(*cmd, f->source);
  cmd->add_option("--family", f->family, "Only this family");
  cmd->add_option("--level", f->level, "Only this level (easy|medium|hard|expert; needs --family)");
  cmd->add_option("--campaign", f->campaign, "Only puzzles this campaign stored");
  cmd->add_option("--limit", f->limit, "At most this many puzzles (0: all)");
  cmd->add_option("--format", f->format, "jsonl or text")->check(CLI::IsMember({"jsonl", "text"}));
  cmd->add_flag("--no-solution", f->no_solution, "Leave the solutions out");
  cmd->callback([f, &exit_code] { exit_code = Export(*f); });
}

void AddGetCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<GetFlags>();
  CLI::App* cmd = app.add_subcommand("get", "Print one puzzle by id");
  cmd->add_option("id", f->id, "Puzzle id, e.g. sn-0123…")->required();
  AddSourceFlags(*cmd, f->source);
  cmd->add_flag("--text", f->text, "Plain text instead of JSON");
  cmd->callback([f, &exit_code] { exit_code = Get(*f); });
}

}  // namespace foundry::cli
