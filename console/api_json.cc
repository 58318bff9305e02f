#include "console/api_json.h"

#include <set>

namespace foundry::console {
namespace {

double Ratio(uint64_t num, uint64_t den) {
  return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

}  // namespace

nlohmann::json ObjectOrEmpty(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_object() ? j : nlohmann::json::object();
}

nlohmann::json CampaignJson(const foundry::v1::Campaign& c) {
  const auto& k = c.counters();
  const auto& spec = c.spec();
  nlohmann::json params = ObjectOrEmpty(c.params_json());
  std::string level = spec.level();
  if (level.empty() && params.contains("level") && params["level"].is_string()) {
    level = params["level"].get<std::string>();
  }
  nlohmann::json eta = nullptr;
  if (c.state() == foundry::v1::CAMPAIGN_STATE_RUNNING && c.rate_per_second() > 0 &&
      spec.count() >= k.stored()) {
    eta = static_cast<double>(spec.count() - k.stored()) / c.rate_per_second();
  }
  return {
      {"id", c.id()},
      {"family", spec.family()},
      {"count", spec.count()},
      {"seed", spec.seed()},
      {"priority", spec.priority()},
      {"level", level.empty() ? "any" : level},
      {"params", std::move(params)},
      {"state", CampaignStateName(c.state())},
      {"message", c.message()},
      {"candidates", k.candidates()},
      {"accepted", k.accepted()},
      {"rejected", k.rejected()},
      {"duplicates", k.duplicates()},
      {"invalid", k.invalid()},
      {"stored", k.stored()},
      {"progress", c.progress()},
      {"rate", c.rate_per_second()},
      {"eta_seconds", eta},
      {"acceptance_rate", Ratio(k.accepted(), k.candidates())},
      {"duplicate_rate", Ratio(k.duplicates(), k.accepted())},
      {"created_ms", c.created_unix_ms()},
      {"finished_ms", c.finished_unix_ms()},
  };
}

nlohmann::json WorkerJson(const foundry::v1::WorkerInfo& w, int64_t now_ms) {
  const bool quarantined = w.state() == foundry::v1::WORKER_STATE_QUARANTINED;
  return {
      {"id", w.worker_id()},
      {"state", WorkerStateName(w.state())},
      {"alive", !quarantined && now_ms - w.last_seen_unix_ms() <= kWorkerAliveMs},
      {"threads", w.threads()},
      {"leases", w.leases()},
      {"last_seen_ms", w.last_seen_unix_ms()},
      {"candidates_per_second", w.candidates_per_second()},
      {"puzzles_per_second", w.accepted_per_second()},
      {"verify_jobs", w.verify_jobs()},
      {"jobs_agreed", w.jobs_agreed()},
      {"build", w.build()},
      {"evidence", w.evidence()},
  };
}

nlohmann::json PuzzleRowJson(const foundry::v1::Puzzle& p) {
  return {
      {"id", p.id()},
      {"family", p.family()},
      {"level", p.difficulty().level()},
      {"score", p.difficulty().score()},
      {"campaign_id", p.campaign_id()},
      {"created_ms", p.created_unix_ms()},
      {"solved", p.plays().solved()},
      {"failed", p.plays().failed()},
  };
}

nlohmann::json PlaysJson(const foundry::v1::PlayStats& plays) {
  return {{"solved", plays.solved()},
          {"failed", plays.failed()},
          {"mean_solve_seconds", plays.mean_solve_seconds()}};
}

nlohmann::json ObservedJson(const foundry::v1::ObservedDifficulty& o) {
  return {{"score", o.score()},
          {"level", o.level()},
          {"plays", o.plays()},
          {"solve_rate", o.solve_rate()}};
}

nlohmann::json ParamJson(const foundry::v1::ParamInfo& p) {
  return {{"key", p.key()},
          {"default", p.default_value()},
          {"allowed", p.allowed()},
          {"help", p.help()}};
}

nlohmann::json OverviewJson(const PollSnapshot& snap, int64_t now_ms, int64_t interval_ms) {
  std::set<std::string> families;
  nlohmann::json store_families = nlohmann::json::object();
  for (const auto& level : snap.stats.levels()) {
    families.insert(level.family());
    const uint64_t before = store_families.value(level.family(), uint64_t{0});
    store_families[level.family()] = before + level.puzzles();
  }
  nlohmann::json history = nlohmann::json::array();
  for (const auto& point : snap.history) {
    nlohmann::json rates = nlohmann::json::object();
    for (const auto& [family, rate] : point.rates) {
      rates[family] = rate;
      families.insert(family);
    }
    history.push_back({{"t_ms", point.t_ms}, {"rates", std::move(rates)}});
  }
  nlohmann::json running = nlohmann::json::array();
  for (const auto& c : snap.stats.campaigns()) {
    if (c.state() == foundry::v1::CAMPAIGN_STATE_RUNNING) running.push_back(CampaignJson(c));
  }
  uint64_t alive = 0, quarantined = 0, threads = 0;
  for (const auto& w : snap.workers.workers()) {
    if (w.state() == foundry::v1::WORKER_STATE_QUARANTINED) {
      ++quarantined;
    } else if (now_ms - w.last_seen_unix_ms() <= kWorkerAliveMs) {
      ++alive;
      threads += w.threads();
    }
  }
  return {
      {"now_ms", now_ms},
      {"polled_ms", snap.polled_ms},
      {"poll_error", snap.error},
      {"interval_ms", interval_ms},
      {"families", nlohmann::json(std::vector<std::string>(families.begin(), families.end()))},
      {"history", std::move(history)},
      {"campaigns", std::move(running)},
      {"workers", {{"alive", alive}, {"quarantined", quarantined}, {"threads", threads}}},
      {"store",
       {{"puzzles", snap.stats.puzzles()},
        {"plays_recorded", snap.stats.plays_recorded()},
        {"families", std::move(store_families)}}},
  };
}

nlohmann::json PlayerJson(const foundry::v1::Player& p) {
  return {{"family", p.family()},
          {"rating", p.rating()},
          {"deviation", p.deviation()},
          {"volatility", p.volatility()},
          {"plays", p.plays()},
          {"solves", p.solves()},
          {"solve_rate", Ratio(p.solves(), p.plays())}};
}

PlayEntry PlayEntryFrom(const Round& round, const foundry::v1::RecordPlayResponse& play,
                        double seconds, int64_t now_ms) {
  PlayEntry e;
  e.puzzle_id = round.puzzle_id;
  e.family = round.family;
  e.player = round.player;
  e.source = round.source;
  e.offset = round.offset;
  e.solved = play.solved();
  e.rated = play.rated();
  e.rating_after = play.player().rating();
  e.rating_before = play.player().rating() - play.player_rating_change();
  e.deviation = play.player().deviation();
  e.plays = play.player().plays();
  e.solves = play.player().solves();
  e.puzzle_rating = play.puzzle_rating();
  e.puzzle_rating_change = play.puzzle_rating_change();
  e.seconds = seconds;
  e.t_ms = now_ms;
  return e;
}

}  // namespace foundry::console
