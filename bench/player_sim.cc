// player_sim: simulated players against a real foundry-coordinator, through
// the gRPC API a game server uses (docs/players.md, "The player simulator").
//
// Every player has a hidden skill and every puzzle of --family a hidden
// difficulty (player_sim_model.h). A play takes the next puzzle (NextPuzzle
// with --mode adaptive; a random puzzle the player has not had with --mode
// random), solves it with the logistic probability of skill − difficulty,
// and records it with RecordPlay: the right answer when solved, a wrong but
// well-formed one otherwise, so the family judges every play, and a play_id
// of its own. The solutions come from ExportPuzzles (NextPuzzle leaves them
// out). At the end it prints how well the store's ratings recover the
// hidden values and how well a rating predicts a solve.
//
//   build/bin/player_sim --target HOST:PORT --family F [--mode adaptive|random]
//     [--players 5000] [--plays 200000] [--threads 8] [--out FILE]
// The token, when the coordinator wants one, is FOUNDRY_TOKEN_FILE's (as for
// the CLI). --out writes "key<TAB>value" lines for bench/player_sim.sh.
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <CLI/CLI.hpp>

#include "bench/player_sim_model.h"
#include "common/client_security.h"
#include "common/grpc_runtime.h"
#include "foundry/v1/store.grpc.pb.h"
#include "puzzles/registry.h"
#include "ratings/glicko2.h"

namespace {

namespace v1 = foundry::v1;
namespace sim = foundry::bench::sim;
using foundry::ratings::Rating;
using Clock = std::chrono::steady_clock;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Flags {
  std::string target, family, mode = "adaptive", run = "sim", out;
  uint64_t players = 5000, plays = 200000, seed = 1;
  int threads = 8;
  double offset = 0;
  uint64_t cold_plays = 50;
  double store_center = 1500;     // a new puzzle's rating at score 0.5 in the store, and
  double store_per_score = 1000;  // its slope (coordinator/store_players.cc)
  double store_deviation = 200;   // a new puzzle's deviation (--new-puzzle-rating-deviation)
  sim::HiddenModel model;
};

struct Puzzle {
  std::string id;
  double initial = 0;  // the store's rating before any play
  double hidden = 0;
  sim::Answers answers;
  // Under the puzzle's stripe lock:
  Rating mirror;          // the store's Glicko-2 state, replayed (for the deviation)
  uint64_t judged = 0;    // the highest judged_plays seen
  double rating = 0;      // the store's rating after that play
  double at_cold = kNaN;  // the rating right after judged play number cold_plays
};

struct Player {
  std::string id;
  double skill = 0;
  Rating rating;  // as the store last reported it
  std::unordered_set<uint32_t> had;
  uint64_t plays = 0;
};

struct Prediction {
  float p;
  bool solved;
  bool late;  // in the second half of the run
};

struct ThreadStats {
  std::vector<Prediction> predictions;
  uint64_t repeats = 0, exhausted = 0, errors = 0, mismatches = 0, unrated = 0;
  std::string first_error;
  void Error(const std::string& what, const grpc::Status& s) {
    if (errors++ == 0) first_error = what + ": " + s.error_message();
  }
};

struct Shared {
  explicit Shared(const Flags& flags) : f(flags) {}
  const Flags& f;
  foundry::ClientSecurity security;
  std::vector<Puzzle> puzzles;
  std::unordered_map<std::string, uint32_t> index;
  std::vector<Player> players;
  std::array<std::mutex, 256> stripes;
  std::atomic<uint64_t> done{0};
  std::mutex drift_mu;
  std::vector<double> drift;  // mean (rating − initial) of the played puzzles, per tenth
  Clock::time_point started;

  std::mutex& Lock(uint32_t puzzle) { return stripes[puzzle % stripes.size()]; }

  std::unique_ptr<grpc::ClientContext> Context() const {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    security.Apply(*ctx);
    return ctx;
  }

  void Checkpoint() {
    double sum = 0;
    uint64_t n = 0;
    for (uint32_t i = 0; i < puzzles.size(); ++i) {
      std::lock_guard lock(Lock(i));
      if (puzzles[i].judged == 0) continue;
      sum += puzzles[i].rating - puzzles[i].initial;
      ++n;
    }
    std::lock_guard lock(drift_mu);
    drift.push_back(n ? sum / static_cast<double>(n) : 0);
    const double s = std::chrono::duration<double>(Clock::now() - started).count();
    std::fprintf(stderr, "player_sim: %llu plays in %.0f s, drift %.1f\n",
                 static_cast<unsigned long long>(done.load()), s, drift.back());
  }
};

bool Transient(const grpc::Status& s) {
  return s.error_code() == grpc::StatusCode::UNAVAILABLE ||
         s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED;
}

std::unique_ptr<v1::PuzzleStore::Stub> NewStub(const Shared& sh) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);  // a connection per thread
  return v1::PuzzleStore::NewStub(sh.security.Connect(sh.f.target, args));
}

// Every puzzle of the family with its solution, its hidden difficulty and
// its two answers. The hidden draws hang on the puzzle id, so both modes on
// copies of one store meet the same world.
std::string LoadPuzzles(Shared& sh) {
  auto family = foundry::puzzles::FindFamily(sh.f.family);
  if (!family.ok()) return std::string(family.status().message());
  auto stub = NewStub(sh);
  v1::ExportRequest req;
  req.mutable_filter()->set_family(sh.f.family);
  req.set_include_solution(true);
  auto ctx = sh.Context();
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(30));
  auto reader = stub->ExportPuzzles(ctx.get(), req);
  std::vector<v1::Puzzle> raw;
  v1::Puzzle p;
  while (reader->Read(&p)) raw.push_back(std::move(p));
  if (grpc::Status s = reader->Finish(); !s.ok()) return "ExportPuzzles: " + s.error_message();
  if (raw.empty()) return "the store has no puzzles of family " + sh.f.family;

  sh.puzzles.resize(raw.size());
  std::atomic<size_t> next{0};
  std::mutex error_mu;
  std::string error;
  auto work = [&] {
    for (size_t i; (i = next++) < raw.size();) {
      const v1::Puzzle& r = raw[i];
      Puzzle& z = sh.puzzles[i];
      z.id = r.id();
      const double score = r.difficulty().score();
      z.initial = sh.f.store_center + sh.f.store_per_score * (score - 0.5);
      const uint64_t h = std::hash<std::string>{}(z.id) ^ sh.f.seed;
      z.hidden = sh.f.model.center + sh.f.model.per_score * (score - 0.5) +
                 sh.f.model.noise_sd * sim::NormalOf(sim::Mix(h), sim::Mix(h + 1));
      z.mirror = {z.initial, sh.f.store_deviation, 0.09};
      z.rating = z.initial;
      auto answers = sim::MakeAnswers(**family, nlohmann::json::parse(r.puzzle_json()),
                                      nlohmann::json::parse(r.solution_json()), h);
      if (!answers.ok()) {
        std::lock_guard lock(error_mu);
        error = z.id + ": " + std::string(answers.status().message());
        return;
      }
      z.answers = std::move(*answers);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < sh.f.threads; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  if (!error.empty()) return error;
  for (uint32_t i = 0; i < sh.puzzles.size(); ++i) sh.index[sh.puzzles[i].id] = i;
  return "";
}

// One play of player `pi`: the next puzzle, the answer, the record.
void PlayOnce(Shared& sh, v1::PuzzleStore::Stub& stub, uint32_t pi, uint64_t& rng,
              ThreadStats& st) {
  const Flags& f = sh.f;
  Player& player = sh.players[pi];
  uint32_t zi = 0;
  if (f.mode == "adaptive") {
    v1::NextPuzzleRequest req;
    req.set_player_id(player.id);
    req.set_family(f.family);
    req.set_offset(f.offset);
    v1::Puzzle next;
    grpc::Status s;
    for (int attempt = 0; attempt < 5; ++attempt) {
      s = stub.NextPuzzle(sh.Context().get(), req, &next);
      if (!Transient(s)) break;
    }
    if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      ++st.exhausted;
      return;
    }
    if (!s.ok()) return st.Error("NextPuzzle", s);
    auto found = sh.index.find(next.id());
    if (found == sh.index.end()) {
      return st.Error("NextPuzzle", grpc::Status(grpc::StatusCode::UNKNOWN,
                                                 "served unknown puzzle " + next.id()));
    }
    zi = found->second;
    if (!player.had.insert(zi).second) {
      ++st.repeats;  // served again: counted, not played
      return;
    }
  } else {
    if (player.had.size() == sh.puzzles.size()) {
      ++st.exhausted;
      return;
    }
    do zi = static_cast<uint32_t>(sim::Mix(++rng) % sh.puzzles.size());
    while (!player.had.insert(zi).second);
  }
  Puzzle& puzzle = sh.puzzles[zi];
  const bool solve =
      sim::UniformOf(sim::Mix(++rng)) < sim::SolveProbability(player.skill, puzzle.hidden);

  v1::RecordPlayRequest req;
  req.set_id(puzzle.id);
  req.set_player_id(player.id);
  req.set_answer(solve ? puzzle.answers.right : puzzle.answers.wrong);
  req.set_play_id(fmt::format("{}-{}-{}", f.run, pi, player.plays++));
  req.set_seconds(60);
  v1::RecordPlayResponse resp;
  grpc::Status s;
  // A retry keeps the play_id: the store counts the play once.
  for (int attempt = 0; attempt < 5; ++attempt) {
    s = stub.RecordPlay(sh.Context().get(), req, &resp);
    if (!Transient(s)) break;
  }
  if (!s.ok()) return st.Error("RecordPlay", s);
  if (resp.solved() != solve || !resp.judged()) ++st.mismatches;
  if (!resp.rated()) ++st.unrated;

  const Rating before_player = player.rating;
  double predicted;
  {
    std::lock_guard lock(sh.Lock(zi));
    // The store's puzzle before the play: its rating from the answer, its
    // deviation and volatility from the replay (plays of one puzzle rarely
    // overlap, so the replay's order is the store's).
    const Rating before{resp.puzzle_rating() - resp.puzzle_rating_change(), puzzle.mirror.deviation,
                        puzzle.mirror.volatility};
    predicted = foundry::ratings::ExpectedScore(before_player, before);
    puzzle.mirror = foundry::ratings::Update(before, {{before_player, solve ? 0.0 : 1.0}}, {});
    puzzle.mirror.rating = resp.puzzle_rating();
    if (resp.judged_plays() >= puzzle.judged) {
      puzzle.judged = resp.judged_plays();
      puzzle.rating = resp.puzzle_rating();
    }
    if (resp.judged_plays() == f.cold_plays) puzzle.at_cold = resp.puzzle_rating();
  }
  player.rating = {resp.player().rating(), resp.player().deviation(), resp.player().volatility()};
  const uint64_t n = ++sh.done;
  st.predictions.push_back({static_cast<float>(predicted), resp.solved(), n > f.plays / 2});
  if (f.plays >= 10 && n % (f.plays / 10) == 0) sh.Checkpoint();
}

struct Row {
  std::string key, label, value, target;
};

int Run(const Flags& f) {
  Shared sh(f);
  auto security = foundry::ClientSecurity::FromEnvironment();
  if (!security.ok()) {
    std::fprintf(stderr, "player_sim: %s\n", std::string(security.status().message()).c_str());
    return 1;
  }
  sh.security = *security;
  const auto t_load = Clock::now();
  if (std::string error = LoadPuzzles(sh); !error.empty()) {
    std::fprintf(stderr, "player_sim: %s\n", error.c_str());
    return 1;
  }
  std::fprintf(
      stderr, "player_sim: %zu puzzles of %s loaded in %.1f s; %llu plays by %llu players\n",
      sh.puzzles.size(), f.family.c_str(),
      std::chrono::duration<double>(Clock::now() - t_load).count(),
      static_cast<unsigned long long>(f.plays), static_cast<unsigned long long>(f.players));
  sh.players.resize(f.players);
  for (uint64_t i = 0; i < f.players; ++i) {
    const uint64_t h = sim::Mix(f.seed * 0x100000001ULL + i);
    sh.players[i].id = fmt::format("{}-p{}", f.run, i);
    sh.players[i].skill = f.model.skill_mean + f.model.skill_sd * sim::NormalOf(h, sim::Mix(h));
  }

  // Thread t plays the players t, t + T, t + 2T, ...: one player's plays
  // are sequential, as a person's are, and need no lock.
  const int threads = static_cast<int>(std::min<uint64_t>(f.threads, f.players));
  std::vector<ThreadStats> stats(threads);
  std::vector<std::thread> pool;
  const auto t0 = Clock::now();
  sh.started = t0;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      auto stub = NewStub(sh);
      uint64_t rng = sim::Mix(f.seed * 7919 + static_cast<uint64_t>(t));
      const uint64_t mine = (f.players - static_cast<uint64_t>(t) + threads - 1) / threads;
      const uint64_t plays = f.plays / threads + (static_cast<uint64_t>(t) < f.plays % threads);
      for (uint64_t k = 0; k < plays; ++k) {
        const uint64_t pi = static_cast<uint64_t>(t) + threads * (sim::Mix(++rng) % mine);
        PlayOnce(sh, *stub, static_cast<uint32_t>(pi), rng, stats[t]);
      }
    });
  }
  for (auto& t : pool) t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();

  ThreadStats all;
  std::vector<std::pair<float, bool>> preds, late;
  for (auto& st : stats) {
    all.repeats += st.repeats;
    all.exhausted += st.exhausted;
    all.errors += st.errors;
    all.mismatches += st.mismatches;
    all.unrated += st.unrated;
    if (all.first_error.empty()) all.first_error = st.first_error;
    for (const auto& p : st.predictions) {
      preds.emplace_back(p.p, p.solved);
      if (p.late) late.emplace_back(p.p, p.solved);
    }
  }
  if (!all.first_error.empty()) {
    std::fprintf(stderr, "player_sim: %llu errors, the first: %s\n",
                 static_cast<unsigned long long>(all.errors), all.first_error.c_str());
  }

  std::vector<double> zr, zh, zi, ar, ah, pr, ps;
  std::vector<uint64_t> per_puzzle;
  double cold_init = 0, cold_flat = 0, cold_hidden = 0;
  uint64_t cold_n = 0;
  for (const Puzzle& z : sh.puzzles) {
    ar.push_back(z.rating);
    ah.push_back(z.hidden);
    if (z.judged == 0) continue;
    zr.push_back(z.rating);
    zh.push_back(z.hidden);
    zi.push_back(z.initial);
    per_puzzle.push_back(z.judged);
    if (!std::isnan(z.at_cold)) {
      ++cold_n;
      cold_init += std::abs(z.initial - z.at_cold);
      cold_flat += std::abs(f.store_center - z.at_cold);
      cold_hidden += std::abs(z.hidden - z.at_cold);
    }
  }
  for (const Player& p : sh.players) {
    if (p.plays == 0) continue;
    pr.push_back(p.rating.rating);
    ps.push_back(p.skill);
  }
  std::sort(per_puzzle.begin(), per_puzzle.end());
  const auto calib = sim::Calibrate(preds), calib_late = sim::Calibrate(late);
  double drift_max = 0;
  for (double d : sh.drift) drift_max = std::max(drift_max, std::abs(d));
  const double cn = static_cast<double>(std::max<uint64_t>(cold_n, 1));
  auto num = [](double v, int digits = 3) { return fmt::format("{:.{}f}", v, digits); };
  auto count = [](uint64_t v) { return std::to_string(v); };

  const std::vector<Row> rows = {
      {"plays", "rated plays (of those asked)", count(preds.size()), ""},
      {"plays_per_s", "plays/s (NextPuzzle or draw + RecordPlay)", num(preds.size() / seconds, 0),
       ""},
      {"puzzles_played", "puzzles played / in the store",
       count(zr.size()) + " / " + count(sh.puzzles.size()), ""},
      {"plays_per_puzzle", "judged plays per played puzzle: median / max",
       per_puzzle.empty()
           ? "-"
           : count(per_puzzle[per_puzzle.size() / 2]) + " / " + count(per_puzzle.back()),
       ""},
      {"spearman_puzzle", "Spearman(puzzle rating, hidden difficulty), played puzzles",
       num(sim::Spearman(zr, zh)), ">= 0.9"},
      {"spearman_puzzle_all", "the same, every puzzle (unplayed at their initial rating)",
       num(sim::Spearman(ar, ah)), ""},
      {"spearman_initial", "Spearman(initial rating, hidden difficulty), played puzzles",
       num(sim::Spearman(zi, zh)), ""},
      {"spearman_player", "Spearman(player rating, hidden skill)", num(sim::Spearman(pr, ps)),
       ">= 0.9"},
      {"log_loss", "log-loss: predicted / base rate",
       num(calib.log_loss, 4) + " / " + num(calib.base_log_loss, 4), "< base"},
      {"brier", "Brier: predicted / base rate",
       num(calib.brier, 4) + " / " + num(calib.base_brier, 4), "< base"},
      {"log_loss_late", "log-loss, second half of the run: predicted / base rate",
       num(calib_late.log_loss, 4) + " / " + num(calib_late.base_log_loss, 4), "< base"},
      {"base_rate", "solve rate", num(calib.base_rate), ""},
      {"drift", "drift of the mean rating of played puzzles: end / max over tenths",
       num(sh.drift.empty() ? 0 : sh.drift.back(), 1) + " / " + num(drift_max, 1), "<= 50"},
      {"repeats", "repeats (a puzzle served again to a player)", count(all.repeats), "0"},
      {"exhausted", "RESOURCE_EXHAUSTED (player had every puzzle)", count(all.exhausted), ""},
      {"cold_n", fmt::format("puzzles with {} judged plays", f.cold_plays), count(cold_n), ""},
      {"cold_mae",
       fmt::format("MAE vs rating after {} plays: initial / 1500 / hidden", f.cold_plays),
       cold_n ? num(cold_init / cn, 0) + " / " + num(cold_flat / cn, 0) + " / " +
                    num(cold_hidden / cn, 0)
              : "-",
       "initial < 1500"},
      {"mismatches", "plays judged otherwise than meant / not rated",
       count(all.mismatches) + " / " + count(all.unrated), "0 / 0"},
      {"errors", "calls failed", count(all.errors), "0"},
  };
  std::printf("| %s, %s | value | target |\n|---|---|---|\n", f.family.c_str(), f.mode.c_str());
  for (const Row& r : rows) {
    std::printf("| %s | %s | %s |\n", r.label.c_str(), r.value.c_str(), r.target.c_str());
  }
  if (!f.out.empty()) {
    std::ofstream out(f.out);
    for (const Row& r : rows)
      out << r.key << '\t' << r.value << '\t' << r.label << '\t' << r.target << '\n';
  }
  return all.errors == 0 && !preds.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"player_sim: simulated players against a coordinator (docs/players.md)"};
  Flags f;
  app.add_option("--target", f.target, "Coordinator address, HOST:PORT")->required();
  app.add_option("--family", f.family, "The family played")->required();
  app.add_option("--mode", f.mode, "adaptive (NextPuzzle) or random (an unplayed puzzle at random)")
      ->check(CLI::IsMember({"adaptive", "random"}));
  app.add_option("--players", f.players, "Simulated players")->check(CLI::Range(1, 10'000'000));
  app.add_option("--plays", f.plays, "Plays in all")->check(CLI::Range(1, 100'000'000));
  app.add_option("--threads", f.threads, "Plays in flight at once")->check(CLI::Range(1, 256));
  app.add_option("--seed", f.seed, "Seed of the hidden world (same seed, same world)");
  app.add_option("--run", f.run, "Prefix of player ids and play_ids (one per run on a store)");
  app.add_option("--offset", f.offset, "NextPuzzle's offset")->check(CLI::Range(-1000.0, 1000.0));
  app.add_option("--noise-sd", f.model.noise_sd, "SD of the hidden difficulty around the grade");
  app.add_option("--skill-mean", f.model.skill_mean, "Mean hidden skill");
  app.add_option("--skill-sd", f.model.skill_sd, "SD of the hidden skill");
  app.add_option("--hidden-center", f.model.center, "Hidden difficulty at score 0.5");
  app.add_option("--hidden-per-score", f.model.per_score, "Hidden difficulty per unit of score");
  app.add_option("--cold-plays", f.cold_plays,
                 "Plays after which a puzzle's rating is the truth "
                 "a new puzzle's initial rating is judged by");
  app.add_option(
      "--puzzle-deviation", f.store_deviation,
      "The coordinator's --new-puzzle-rating-deviation (replayed deviations start there)");
  app.add_option("--out", f.out, "Also write the figures as key<TAB>value<TAB>label lines");
  CLI11_PARSE(app, argc, argv);
  return Run(f);
}
