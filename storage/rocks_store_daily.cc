// RocksStore's puzzle of the day (docs/players.md): one puzzle per family
// and date, drawn with a seed of (family, date) and remembered under
// "daily" (player_keys.h), so that it stays the same for every caller while
// the family grows.
#include <mutex>

#include <rocksdb/db.h>

#include "storage/player_keys.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

namespace {

// A seed from the bytes of family and date alone (FNV-1a, then SplitMix64's
// finaliser to spread it): the same in every build and on every machine,
// unlike std::hash. Never 0 (Sample's "unseeded").
uint64_t DaySeed(std::string_view family, std::string_view date) {
  uint64_t h = 0xcbf29ce484222325ull;
  const auto mix = [&h](std::string_view bytes) {
    for (unsigned char c : bytes) {
      h ^= c;
      h *= 0x100000001b3ull;
    }
  };
  mix(family);
  mix(std::string_view("\0", 1));
  mix(date);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h == 0 ? 1 : h;
}

}  // namespace

Result<foundry::v1::Puzzle> RocksStore::DailyPuzzle(std::string_view family,
                                                    std::string_view date) {
  if (family.empty() || family.find('\0') != std::string_view::npos ||
      date.find('\0') != std::string_view::npos) {
    return Status::InvalidArgument("the puzzle of the day needs a family and a date without NUL");
  }
  const std::string key = player_keys::DailyKey(family, date);
  // One lock from the look-up to the write: two first callers of a day
  // cannot remember two different puzzles.
  std::lock_guard<std::mutex> lock(players_mu_);
  std::string id;
  Result<bool> chosen = GetMeta(key, &id);
  if (!chosen.ok()) return chosen.status();
  if (*chosen) {
    Result<foundry::v1::Puzzle> puzzle = GetPuzzle(id);
    // A rolled-back pick is drawn again below; anything else is an answer.
    if (puzzle.ok() || puzzle.status().code() != Status::Code::kNotFound) return puzzle;
  }
  PuzzleFilter filter;
  filter.family = std::string(family);
  Result<std::vector<foundry::v1::Puzzle>> drawn = Sample(filter, 1, {}, DaySeed(family, date));
  if (!drawn.ok()) return drawn.status();
  if (drawn->empty()) {
    return Status::NotFound("family '" + std::string(family) + "' has no puzzles in the store");
  }
  rocksdb::WriteOptions wo;
  wo.sync = sync_writes_;
  FOUNDRY_RETURN_IF_ERROR(FromRocks(db_->Put(wo, cf(kDefault), key, drawn->front().id()), dir_,
                                    "cannot remember the puzzle of the day"));
  return std::move(drawn->front());
}

}  // namespace foundry::storage
