// foundry export --plays: players' results from a store directory (read
// directly) or a coordinator (ExportPlays, admin).

#include <fmt/format.h>

#include "cli/client.h"
#include "cli/commands.h"
#include "cli/play_export.h"
#include "cli/stdout_lines.h"
#include "foundry/v1/store.grpc.pb.h"
#include "puzzles/registry.h"
#include "storage/store.h"

namespace foundry::cli {

nlohmann::json PlayToJson(const foundry::v1::PlayRecord& r) {
  nlohmann::json j = {{"seq", r.seq()},         {"id", r.puzzle_id()},
                      {"family", r.family()},   {"player_id", r.player_id()},
                      {"solved", r.solved()},   {"judged", r.judged()},
                      {"seconds", r.seconds()}, {"recorded_unix_ms", r.recorded_unix_ms()}};
  if (!r.play_id().empty()) j["play_id"] = r.play_id();
  if (r.judged()) {
    j["answer"] = r.answer();
    j["rated"] = r.rated();
    j["opened_by_id"] = r.opened_by_id();
    j["player_rating"] = r.player_rating();
    j["player_rating_change"] = r.player_rating_change();
    j["puzzle_rating"] = r.puzzle_rating();
    j["puzzle_rating_change"] = r.puzzle_rating_change();
  }
  if (r.has_answer_score()) {
    const auto& s = r.answer_score();
    j["score"] = {{"score", s.score()},
                  {"target", s.target_score()},
                  {"greedy", s.greedy_score()},
                  {"best", s.best_score()}};
    j["new_best"] = r.new_best();
    j["best_now"] = r.best_now();
  }
  return j;
}

int ExportPlays(const PlayExportFlags& f) {
  if (f.db.empty() == f.coordinator.empty()) {
    return Fail("export --plays needs " + NoStoreGiven());
  }
  if (!f.family.empty()) {
    if (auto family = puzzles::FindFamily(f.family); !family.ok()) {
      return Fail(family.status().message());
    }
  }
  StdoutLines out;
  if (!f.db.empty()) {
    storage::StoreOptions opts;
    opts.create_if_missing = false;
    auto store = storage::Store::Open(f.db, opts);
    if (!store.ok()) return Fail(store.status().ToString());
    Status done =
        (*store)->ScanPlays(f.player, f.family, f.limit, [&](const foundry::v1::PlayRecord& r) {
          out.Add(PlayToJson(r).dump());
          return true;
        });
    if (!done.ok()) return Fail(done.ToString());
    return 0;
  }
  auto stub = foundry::v1::PuzzleStore::NewStub(Connect(f.coordinator));
  foundry::v1::ExportPlaysRequest req;
  req.set_family(f.family);
  req.set_player_id(f.player);
  req.set_limit(f.limit);
  if (Status text = CheckUtf8Fields(req); !text.ok()) return Fail(text.message());
  auto ctx = CallContext(std::chrono::hours(24));
  auto reader = stub->ExportPlays(ctx.get(), req);
  foundry::v1::PlayRecord r;
  while (reader->Read(&r)) out.Add(PlayToJson(r).dump());
  grpc::Status s = reader->Finish();
  if (!s.ok()) return Fail(DescribeRpcError(s, f.coordinator));
  return 0;
}

}  // namespace foundry::cli
