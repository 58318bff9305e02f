// What the player calls cost the coordinator's store below gRPC (the part of
// bench/players_cost.sh's figures that is the store's), on a real store:
//  - BM_RecordPlayerPlay: a judged, rated play as the service makes it after
//    judging (the record handed over), a new play_id, a player drawn from
//    PLAYERS and a puzzle from the store's first POOL ids in id order;
//  - BM_NextPuzzle: the player's figures, then NextPuzzle at their rating,
//    as the service does, for a player drawn from PLAYERS.
// Every call writes (a play, or a served puzzle), as on a serving
// coordinator; run it on a copy of a store.
//
//   STORE=/path/to/copy build/bin/play_path [--benchmark_repetitions=3]
// (bench/players_cost.sh keeps such a store in
// /tmp/foundry-players-cost-PUZZLES-PLAYERS: copy it first.)
// Env: POOL (50000), PLAYERS (100000), FAMILY (secret-number: NextPuzzle).
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/store_env.h"
#include "coordinator/rating_settings.h"
#include "storage/store.h"

namespace {

using foundry::storage::Store;

using foundry::bench::EnvOr;

void BM_RecordPlayerPlay(benchmark::State& state) {
  std::unique_ptr<Store> opened = foundry::bench::OpenBenchStore(state);
  if (!opened) return;
  Store& store = *opened;
  std::vector<foundry::v1::Puzzle> pool;
  (void)store.Scan({}, "", EnvOr("POOL", 50'000), [&](const foundry::v1::Puzzle& p) {
    pool.push_back(p);
    pool.back().clear_plays();
    pool.back().clear_observed();
    return true;
  });
  if (pool.empty()) {
    state.SkipWithError("the store holds no puzzles");
    return;
  }
  foundry::storage::RatingModel model = foundry::coordinator::DefaultRatingModel();
  model.rate_unserved = true;  // as bench/players_cost.sh's coordinator
  const uint64_t players = EnvOr("PLAYERS", 100'000);
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
  std::uniform_int_distribution<uint64_t> player(0, players - 1);
  uint64_t n = 0;
  const auto play = [&] {
    foundry::storage::PlayerPlay p;
    p.record = pool[pick(rng)];
    p.puzzle_id = p.record->id();
    p.player_id = "cost-p" + std::to_string(player(rng));  // players_load's names
    p.play_id = "bench-" + std::to_string(++n);
    p.judged = true;
    p.solved = (n & 1) != 0;
    p.answer = "123";
    p.seconds = 3;
    p.daily_days = {"2026-11-27", "2026-11-26"};
    auto r = store.RecordPlayerPlay(p, model);
    if (!r.ok()) std::abort();
    benchmark::DoNotOptimize(r);
  };
  for (int i = 0; i < 20'000; ++i) play();  // warm the caches
  for (auto _ : state) play();
}

void BM_NextPuzzle(benchmark::State& state) {
  std::unique_ptr<Store> opened = foundry::bench::OpenBenchStore(state);
  if (!opened) return;
  Store& store = *opened;
  const foundry::storage::RatingModel model = foundry::coordinator::DefaultRatingModel();
  const std::string family =
      std::getenv("FAMILY") != nullptr ? std::getenv("FAMILY") : "secret-number";
  std::mt19937_64 rng(2);
  std::uniform_int_distribution<uint64_t> player(0, EnvOr("PLAYERS", 100'000) - 1);
  const auto next = [&] {
    const std::string id = "cost-p" + std::to_string(player(rng));
    auto figures = store.GetPlayer(id, family);
    if (!figures.ok()) std::abort();
    const double rating =
        figures->has_value() ? (*figures)->rating.rating : model.new_player.rating;
    auto puzzle = store.NextPuzzle(id, family, rating, model);
    if (!puzzle.ok()) std::abort();
    benchmark::DoNotOptimize(puzzle);
  };
  for (int i = 0; i < 5'000; ++i) next();  // warm the caches
  for (auto _ : state) next();
}

BENCHMARK(BM_RecordPlayerPlay)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NextPuzzle)->Unit(benchmark::kMicrosecond);

}  // namespace
