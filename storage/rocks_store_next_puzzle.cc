// RocksStore::NextPuzzle: a puzzle near a player's rating that the player
// has never had (docs/players.md, "What NextPuzzle costs"). Keys in
// player_keys.h, all in the default column family but by_score's.
#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <rocksdb/db.h>

#include "storage/keys.h"
#include "storage/player_keys.h"
#include "storage/point_reads.h"
#include "storage/rocks_store.h"
#include "storage/rocks_util.h"

namespace foundry::storage {

using foundry::v1::Puzzle;
namespace pk = player_keys;

namespace {

// One index walked in one direction from the target: its ratings only move
// away from the target, so its entries come nearest first.
struct Walk {
  std::unique_ptr<rocksdb::Iterator> it;
  const std::string* prefix = nullptr;
  bool forward = true;
  // by_score holds never-judged puzzles at their initial rating; an entry
  // whose puzzle has been judged since stands at a stale rating there.
  bool by_score = false;
  std::optional<std::pair<double, std::string>> head;  // rating, id; empty at the end
  // Generator scores take few values, so by_score holds groups of up to
  // thousands of puzzles at one initial rating, in id order. A walk that
  // took each group from its near end would give every player of a rating
  // the same few puzzles of it; so, for a draw among K > 1, the walk enters
  // the first group it meets at a random id and goes round it: phase 0
  // from `start` to the group's far end, phase 1 from its near end (`edge`)
  // back to `start`, phase 2 past the group, from `beyond` (none: the walk
  // ends there). All of a group is equally near, so the order stays nearest
  // first. Phase 2 only: a walk without a group.
  int phase = 2;
  bool enter_group = false;  // at its first use: the walk's first read is the near end
  std::string group, start, edge;
  std::optional<std::string> beyond;
  bool ended = false;
};

// Puts `w` on its first entry at or past `key` in its direction.
void SeekFrom(Walk& w, std::string_view key) {
  w.forward ? w.it->Seek(ToSlice(key)) : w.it->SeekForPrev(ToSlice(key));
}

// After a move of `w`'s iterator: from a finished part of its group on to
// the next part (see Walk). An iterator error is left for the caller.
void Settle(Walk& w) {
  rocksdb::Iterator& it = *w.it;
  if (!it.status().ok()) return;
  if (w.phase == 0 && !(it.Valid() && StartsWith(it.key(), w.group))) {
    w.beyond.reset();
    if (it.Valid() && StartsWith(it.key(), *w.prefix)) w.beyond = it.key().ToString();
    w.phase = 1;
    SeekFrom(w, w.edge);
    if (!it.status().ok()) return;
  }
  if (w.phase == 1) {
    const bool before_start = it.Valid() && (w.forward ? it.key().compare(ToSlice(w.start)) < 0
                                                       : it.key().compare(ToSlice(w.start)) > 0);
    if (!before_start) {
      w.phase = 2;
      if (w.beyond) {
        SeekFrom(w, *w.beyond);
      } else {
        w.ended = true;
      }
    }
  }
}

// Puts `w`, just sought to the near end of a by_score group, at a random id
// of that group (phase 0).
void EnterGroupAtRandom(Walk& w, std::mt19937_64& random) {
  if (!w.it->Valid() || !StartsWith(w.it->key(), *w.prefix)) return;
  const std::string_view key = w.it->key().ToStringView();
  const std::optional<keys::ByScoreParts> parts = keys::ParseByScoreKey(key);
  if (!parts) return;  // the walk's read reports it
  w.edge = std::string(key);
  w.group = w.edge.substr(0, key.size() - parts->id.size());
  // An id-like start: the id's "<prefix>-", then random hex digits.
  const size_t dash = parts->id.rfind('-');
  const size_t keep = dash == std::string_view::npos ? 0 : dash + 1;
  w.start = w.group;
  w.start.append(parts->id.substr(0, keep));
  std::uniform_int_distribution<int> digit(0, 15);
  for (size_t i = keep; i < parts->id.size(); ++i) w.start += "0123456789abcdef"[digit(random)];
  w.phase = 0;
  SeekFrom(w, w.start);
  Settle(w);
}

// How far the never-judged-first look goes: this many by_score entries per
// place in the draw (RatingModel::next_new_window), so a call whose nearby
// groups are all judged gives up after a few MultiGets.
constexpr size_t kNewLookPerDraw = 4;

// A puzzle a walk offered, not yet checked against the player's history.
struct Offer {
  std::string id;
  bool by_score = false;
};

bool Listed(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

Result<Puzzle> RocksStore::NextPuzzle(std::string_view player_id, std::string_view family,
                                      double target, const RatingModel& model) {
  std::lock_guard<std::mutex> lock(players_mu_);
  Result<GradeMapping> mapping = MappingOfLocked(family, model);
  if (!mapping.ok()) return mapping.status();
  if (!(mapping->per_score >= 0)) {
    return Status::InvalidArgument("the grade mapping's per_score must not be negative");
  }
  if (model.next_nearest < 1) {
    return Status::InvalidArgument("next_nearest must be at least 1");
  }
  if (!(model.next_new_window >= 0)) {  // NaN too
    return Status::InvalidArgument("next_new_window must not be negative");
  }
  const size_t k = static_cast<size_t>(model.next_nearest);
  // Per call, not per player or seeded: two players of one rating must not
  // draw in step, and nobody can predict (and so pick) their next puzzle.
  thread_local std::mt19937_64 random(std::random_device{}());
  const std::string rating_prefix = pk::ByRatingPrefix(family);
  const std::string score_prefix = keys::FamilyPrefix(family);

  // Moves `w` to its next entry (`next`) or reads the one it is on.
  const auto read_head = [&](Walk& w, bool next) -> Status {
    w.head.reset();
    if (next && !w.ended) {
      w.forward ? w.it->Next() : w.it->Prev();
      Settle(w);
    }
    if (w.ended) return Status::Ok();
    if (!w.it->Valid() || !StartsWith(w.it->key(), *w.prefix)) {
      return FromRocks(w.it->status(), dir_, "cannot walk the puzzles of " + std::string(family));
    }
    const std::string_view key = w.it->key().ToStringView();
    std::optional<std::pair<double, std::string_view>> parsed;
    if (w.by_score) {
      if (auto parts = keys::ParseByScoreKey(key)) {
        parsed.emplace(mapping->Rating(parts->score), parts->id);
      }
    } else {
      parsed = pk::ParseByRatingKey(rating_prefix, key);
    }
    if (!parsed) {
      return Status::DataLoss("store at " + dir_ + " has a malformed index entry (" +
                              w.it->key().ToString(/*hex=*/true) + ")");
    }
    w.head.emplace(parsed->first, std::string(parsed->second));
    return Status::Ok();
  };

  // Never-judged puzzles sit at mapping(score), monotone in the score: the
  // score whose rating is the target is where by_score is sought. With a
  // flat mapping (per_score 0) they all sit at its center; any start will do.
  const double target_score =
      mapping->per_score > 0 ? 0.5 + (target - mapping->center) / mapping->per_score : 0.5;
  const std::string rating_seek = rating_prefix + keys::ScoreKey(target);
  const std::string score_seek = keys::ByScoreKeyPrefix(family, target_score);
  // In today's order of ties (by_rating before by_score, upward before
  // downward), so next_nearest 1 serves what it always served. A walk's
  // iterator is opened when the look first needs it: a call that finds
  // never-judged puzzles within the window never opens by_rating's.
  std::vector<Walk> walks;
  for (bool forward : {true, false}) {
    for (bool by_score : {false, true}) {
      Walk w;
      w.forward = forward;
      w.prefix = by_score ? &score_prefix : &rating_prefix;
      w.by_score = by_score;
      // K = 1 keeps the nearest in key order: players of one rating in step.
      // Entered when first used: a call often takes nothing from one walk.
      w.enter_group = by_score && k > 1;
      walks.push_back(std::move(w));
    }
  }
  const auto open_walks = [&](bool by_score) -> Status {
    for (Walk& w : walks) {
      if (w.by_score != by_score || w.it) continue;
      w.it.reset(db_->NewIterator(rocksdb::ReadOptions(), cf(by_score ? kByScore : kDefault)));
      SeekFrom(w, by_score ? score_seek : rating_seek);
      FOUNDRY_RETURN_IF_ERROR(read_head(w, false));
    }
    return Status::Ok();
  };

  // Which offers the player may be served: never served to or played by
  // the player, and (by_score's) not judged since. One MultiGet for all.
  const auto servable = [&](const std::vector<Offer>& offers) -> Result<std::vector<bool>> {
    PointReads reads;
    std::vector<size_t> first_slot;
    for (const Offer& o : offers) {
      first_slot.push_back(reads.Add(cf(kDefault), pk::ServedKey(player_id, o.id)));
      reads.Add(cf(kDefault), pk::AttemptKey(player_id, o.id));
      if (o.by_score) reads.Add(cf(kDefault), pk::PuzzleRatingKey(o.id));
    }
    FOUNDRY_RETURN_IF_ERROR(reads.Run(*db_, dir_, "cannot read player data"));
    first_slot.push_back(reads.size());
    std::vector<bool> out(offers.size(), true);
    for (size_t i = 0; i < offers.size(); ++i) {
      for (size_t slot = first_slot[i]; slot < first_slot[i + 1]; ++slot) {
        if (reads.Found(slot)) out[i] = false;
      }
    }
    return out;
  };

  // The K (next_nearest) nearest servable puzzles, then a draw among them:
  // the walks are merged nearest entry first and their entries checked a
  // batch at a time, so a call looks at about K + 3 entries, not 4K. The
  // upward and downward walks both start on a key equal to the seek, hence
  // the check for a repeat. A puzzle rolled back (RollbackCampaign) keeps
  // its rating and by_rating entry, like its plays: when it is drawn it is
  // dropped, and the walks fill the K again.
  std::vector<std::string> nearest, gone;
  // With a window, never-judged puzzles within it come first: a bounded
  // look at the by_score walks only, then the K nearest of all.
  bool new_first = model.next_new_window > 0;
  size_t new_looked = 0;
  FOUNDRY_RETURN_IF_ERROR(open_walks(/*by_score=*/true));
  for (;;) {
    if (!new_first) FOUNDRY_RETURN_IF_ERROR(open_walks(/*by_score=*/false));
    while (nearest.size() < k) {
      std::vector<Offer> offers;
      while (nearest.size() + offers.size() < k) {
        if (new_first && new_looked >= kNewLookPerDraw * k) break;
        Walk* best = nullptr;
        for (Walk& w : walks) {
          if (!w.head) continue;
          if (new_first &&
              (!w.by_score || std::abs(w.head->first - target) > model.next_new_window)) {
            continue;
          }
          if (best == nullptr ||
              std::abs(w.head->first - target) < std::abs(best->head->first - target)) {
            best = &w;
          }
        }
        if (new_first && best != nullptr) ++new_looked;
        if (best == nullptr) break;
        if (best->enter_group) {  // the same rating, so still the nearest
          best->enter_group = false;
          EnterGroupAtRandom(*best, random);
          FOUNDRY_RETURN_IF_ERROR(read_head(*best, false));
          if (!best->head) continue;
        }
        std::string id = std::move(best->head->second);
        const bool by_score = best->by_score;
        FOUNDRY_RETURN_IF_ERROR(read_head(*best, true));
        const bool offered =
            std::any_of(offers.begin(), offers.end(), [&](const Offer& o) { return o.id == id; });
        if (offered || Listed(nearest, id) || Listed(gone, id)) continue;
        offers.push_back({std::move(id), by_score});
      }
      if (offers.empty()) break;
      Result<std::vector<bool>> ok = servable(offers);
      if (!ok.ok()) return ok.status();
      for (size_t i = 0; i < offers.size(); ++i) {
        if ((*ok)[i]) nearest.push_back(std::move(offers[i].id));
      }
    }
    if (nearest.empty() && new_first) {
      new_first = false;
      continue;
    }
    if (nearest.empty()) {
      return Status::ResourceExhausted("player '" + std::string(player_id) +
                                       "' has been served every puzzle of family '" +
                                       std::string(family) + "'");
    }
    const size_t pick = std::uniform_int_distribution<size_t>(0, nearest.size() - 1)(random);
    Result<Puzzle> puzzle = GetPuzzle(nearest[pick]);
    if (!puzzle.ok() && puzzle.status().code() == Status::Code::kNotFound) {
      gone.push_back(std::move(nearest[pick]));
      nearest.erase(nearest.begin() + static_cast<std::ptrdiff_t>(pick));
      continue;
    }
    if (!puzzle.ok()) return puzzle.status();
    rocksdb::WriteOptions wo;
    wo.sync = sync_writes_;
    FOUNDRY_RETURN_IF_ERROR(
        FromRocks(db_->Put(wo, cf(kDefault), pk::ServedKey(player_id, puzzle->id()), ""), dir_,
                  "cannot remember a served puzzle"));
    return puzzle;
  }
}

}  // namespace foundry::storage
