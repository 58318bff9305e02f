#include "puzzles/nonogram/generator.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "puzzles/nonogram/board.h"
#include "puzzles/nonogram/codec.h"
#include "puzzles/nonogram/grader.h"
#include "puzzles/nonogram/search.h"

namespace foundry::puzzles::nonogram {
namespace {

Rows RandomImage(Rng& rng, const GenerateOptions& o) {
  Rows rows(static_cast<size_t>(o.height), 0);
  const double p = o.density / 100.0;
  for (uint64_t& row : rows) {
    for (int c = 0; c < o.width; ++c) {
      if (rng.Chance(p)) row |= 1ULL << c;
    }
  }
  return rows;
}

// A blank or full image, or one whose rows are all alike (its columns are
// then all full or blank, and the typed answer has no two rows to swap).
bool Trivial(const Rows& rows) {
  return std::all_of(rows.begin(), rows.end(), [&](uint64_t r) { return r == rows[0]; });
}

}  // namespace

namespace {

// One image graded, and searched when line solving and probing stall.
struct Trial {
  Clues clues;
  Grading grade;
  GuessCount count;  // for an expert grade only
  Rows other;        // a second solution, when the search found one
};

Trial Evaluate(const Rows& image, const GenerateOptions& o, int last) {
  Trial t;
  t.clues = CluesOf(image, o.width, o.height);
  const LineSet lines(t.clues);
  Board board(lines);
  t.grade = Grade(board, &image, last, o.level == kExpert ? 0 : o.ambiguity_nodes);
  if (!t.grade.stopped && t.grade.level == kExpert && t.grade.open_after_probing > 0) {
    t.count = CountToTwo(board, o.max_nodes, &image, &t.other);
  }
  return t;
}

Candidate Accept(const Trial& t, const Rows& image, const GenerateOptions& o) {
  return Accepted{PuzzleJson(t.clues), SolutionJson(image, o.width),
                  ToDifficulty(t.grade, o.width * o.height)};
}

// Asked for expert, a puzzle with a second solution is repaired: one cell
// where the two solutions differ is flipped in the image, the cells tried
// in a random order until one leaves the puzzle still beyond probing
// (flips that make it solvable by probing are undone).
Candidate RepairToExpert(Rng& rng, Rows image, Trial t, const GenerateOptions& o) {
  constexpr int kTriesPerRound = 6;
  for (int round = 0;; ++round) {
    if (t.grade.open_after_probing == 0) return Accept(t, image, o);  // solved by probing
    if (t.count.exhausted) return Rejected{"search_limit"};
    if (t.count.solutions == 1) return Accept(t, image, o);
    if (round >= o.repairs || t.other.empty()) return Rejected{"not_unique"};
    std::vector<int> differ;
    for (int r = 0; r < o.height; ++r) {
      for (uint64_t m = image[static_cast<size_t>(r)] ^ t.other[static_cast<size_t>(r)]; m != 0;
           m &= m - 1) {
        differ.push_back(r * o.width + __builtin_ctzll(m));
      }
    }
    bool moved = false;
    for (int k = 0; k < kTriesPerRound && k < static_cast<int>(differ.size()) && !moved; ++k) {
      std::swap(differ[static_cast<size_t>(k)],
                differ[static_cast<size_t>(k) + rng.Below(differ.size() - static_cast<size_t>(k))]);
      const int cell = differ[static_cast<size_t>(k)];
      const uint64_t bit = 1ULL << (cell % o.width);
      image[static_cast<size_t>(cell / o.width)] ^= bit;
      Trial u = Trivial(image) ? Trial{} : Evaluate(image, o, kHard);
      if (!Trivial(image) && u.grade.consistent && u.grade.level == kExpert) {
        t = std::move(u);
        moved = true;
      } else {
        image[static_cast<size_t>(cell / o.width)] ^= bit;
      }
    }
    if (!moved) return Rejected{"level"};
  }
}

}  // namespace

Candidate Generate(Rng& rng, const GenerateOptions& o) {
  const Rows image = RandomImage(rng, o);
  if (Trivial(image)) return Rejected{"trivial"};
  const int last = o.level < 0 ? kHard : std::min(o.level, kHard);
  Trial t = Evaluate(image, o, last);
  if (t.grade.ambiguous) return Rejected{"not_unique"};
  if (t.grade.stopped || (o.level >= 0 && t.grade.level != o.level)) return Rejected{"level"};
  if (t.grade.level < kExpert) return Accept(t, image, o);
  if (t.grade.open_after_probing == 0) return Accept(t, image, o);  // solved by probing
  if (o.level == kExpert) return RepairToExpert(rng, image, std::move(t), o);
  if (t.count.exhausted) return Rejected{"search_limit"};
  if (t.count.solutions != 1) return Rejected{"not_unique"};
  return Accept(t, image, o);
}

}  // namespace foundry::puzzles::nonogram
