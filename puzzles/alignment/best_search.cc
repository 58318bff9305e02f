#include "puzzles/alignment/best_search.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

#include "puzzles/bit_count.h"

namespace foundry::puzzles::alignment {
namespace {

constexpr int kInfeasible = -100000;

// Per-column tables for the bound, indexed by (column, row r, bricks placed k)
// at the moment row r is about to be decided for that column.
class Bounds {
 public:
  explicit Bounds(const Board& b) : b_(b), w_(b.width()), h_(b.height) {
    stride_ = 0;
    for (const auto& col : b.columns)
      stride_ = std::max<int>(stride_, static_cast<int>(col.size()) + 1);
    best_.assign(static_cast<size_t>(w_) * (h_ + 1) * stride_, kInfeasible);
    mask_.assign(best_.size(), 0);
    for (int c = 0; c < w_; ++c) {
      const auto& col = b.columns[c];
      const int n = static_cast<int>(col.size());
      for (int r = h_; r >= 0; --r) {
        for (int k = n; k >= 0; --k) {
          if (n - k > h_ - r) continue;  // the rest no longer fits
          int best = 0;
          uint32_t mask = 0;
          if (k < n) {
            const int match = (b.guides[r] >> col[k]) & 1;
            best = match + At(best_, c, r + 1, k + 1);
            mask = At(mask_, c, r + 1, k + 1) | (match ? 1u << r : 0u);
            if (n - k <= h_ - r - 1) {  // the cell may stay empty
              best = std::max(best, At(best_, c, r + 1, k));
              mask |= At(mask_, c, r + 1, k);
            }
          }
          Ref(best_, c, r, k) = best;
          Ref(mask_, c, r, k) = mask;
        }
      }
    }
  }
  // Most matches column c can still make from row r with k bricks placed.
  int Best(int c, int r, int k) const { return At(best_, c, r, k); }
  // Rows >= r where column c can still hold a matching brick.
  uint32_t Mask(int c, int r, int k) const { return At(mask_, c, r, k); }

  // The bound of the whole layout at cell (r, c): `prefix` scores rows < r,
  // `m` counts matches in row r among columns < c (already at row r + 1).
  int Bound(int r, int c, const uint8_t* k, int prefix, int m) const {
    int ub = prefix + m;
    uint32_t later = ~0u;    // rows > r where every column could still match
    bool row_full = m == c;  // row r: every column before c matched in it
    for (int i = 0; i < c; ++i) {
      ub += Best(i, r + 1, k[i]);
      later &= Mask(i, r + 1, k[i]);
    }
    for (int i = c; i < w_; ++i) {
      ub += Best(i, r, k[i]);
      const uint32_t mask = Mask(i, r, k[i]);
      row_full = row_full && ((mask >> r) & 1);
      later &= mask;
    }
    later &= ~((2u << r) - 1);
    const int full = BitCount64(later) + (row_full ? 1 : 0);
    return ub + (b_.row_bonus - 1) * w_ * full;
  }

 private:
  template <typename T>
  T At(const std::vector<T>& v, int c, int r, int k) const {
    return v[(static_cast<size_t>(c) * (h_ + 1) + r) * stride_ + k];
  }
  template <typename T>
  T& Ref(std::vector<T>& v, int c, int r, int k) {
    return v[(static_cast<size_t>(c) * (h_ + 1) + r) * stride_ + k];
  }
  const Board& b_;
  int w_, h_, stride_;
  std::vector<int> best_;
  std::vector<uint32_t> mask_;
};

// The layout of a full decision list: placed[r * W + c] says whether column
// c's next brick went into row r.
Layout LayoutOf(const Board& b, const std::vector<uint8_t>& placed) {
  const int w = b.width();
  Layout layout(w);
  for (int c = 0; c < w; ++c) {
    size_t k = 0;
    for (int r = 0; r < b.height && k < b.columns[c].size(); ++r) {
      if (placed[r * w + c]) {
        layout[c].push_back(static_cast<int8_t>(b.columns[c][k++]));
      } else {
        layout[c].push_back(kGap);
      }
    }
  }
  return layout;
}

struct StateKey {
  uint64_t lo = 0, hi = 0;
  bool operator==(const StateKey&) const = default;
};
struct StateKeyHash {
  size_t operator()(const StateKey& k) const {
    return k.lo * 0x9e3779b97f4a7c15ULL ^ (k.hi + (k.lo >> 29));
  }
};
StateKey KeyOf(int r, const uint8_t* k, int w, int gaps) {
  StateKey key;
  for (int c = 0; c < w; ++c) {
    if (c < 12)
      key.lo |= static_cast<uint64_t>(k[c]) << (5 * c);
    else
      key.hi |= static_cast<uint64_t>(k[c]) << (5 * (c - 12));
  }
  key.hi |= static_cast<uint64_t>(r) << 20 | static_cast<uint64_t>(gaps) << 25;
  return key;
}

class BranchAndBound {
 public:
  BranchAndBound(const Board& b, const Bounds& bounds, int incumbent, int64_t budget)
      : b_(b),
        bounds_(bounds),
        w_(b.width()),
        best_(incumbent),
        budget_(budget),
        placed_(static_cast<size_t>(b.height) * w_, 0) {}

  // False when the node budget ran out.
  bool Run() {
    std::array<uint8_t, kMaxColumns> k{};
    return Visit(0, 0, k.data(), 0, 0, 0);
  }
  int best() const { return best_; }
  const std::vector<uint8_t>& best_placed() const { return best_placed_; }
  int64_t nodes() const { return nodes_; }

 private:
  bool Visit(int r, int c, uint8_t* k, int gaps, int prefix, int m) {
    if (c == w_) {
      prefix += RowScore(m, w_, b_.row_bonus);
      ++r;
      if (r == b_.height) {
        if (prefix > best_) {
          best_ = prefix;
          best_placed_ = placed_;
        }
        return true;
      }
      const StateKey key = KeyOf(r, k, w_, b_.max_gaps > 0 ? gaps : 0);
      auto [it, fresh] = seen_.try_emplace(key, prefix);
      if (!fresh) {
        if (it->second >= prefix) return true;  // reached before, no worse
        it->second = prefix;
      }
      c = 0;
      m = 0;
    }
    if (++nodes_ > budget_) return false;
    if (bounds_.Bound(r, c, k, prefix, m) <= best_) return true;

    const int n = static_cast<int>(b_.columns[c].size());
    const size_t cell = static_cast<size_t>(r) * w_ + c;
    if (k[c] == n) {  // nothing left in this column
      placed_[cell] = 0;
      return Visit(r, c + 1, k, gaps, prefix, m);
    }
    const int match = (b_.guides[r] >> b_.columns[c][k[c]]) & 1;
    const bool may_gap = n - k[c] <= b_.height - r - 1 && (b_.max_gaps == 0 || gaps < b_.max_gaps);
    // A matching brick is tried in place first, another one gapped first.
    for (int option = 0; option < 2; ++option) {
      const bool place = (option == 0) == (match == 1);
      if (place) {
        placed_[cell] = 1;
        ++k[c];
        const bool ok = Visit(r, c + 1, k, gaps, prefix, m + match);
        --k[c];
        if (!ok) return false;
      } else if (may_gap) {
        placed_[cell] = 0;
        if (!Visit(r, c + 1, k, gaps + 1, prefix, m)) return false;
      }
    }
    return true;
  }

  const Board& b_;
  const Bounds& bounds_;
  const int w_;
  int best_;
  const int64_t budget_;
  int64_t nodes_ = 0;
  std::vector<uint8_t> placed_, best_placed_;
  std::unordered_map<StateKey, int, StateKeyHash> seen_;
};

// One partial layout of the beam.
struct BeamState {
  std::array<uint8_t, kMaxColumns> k{};
  int gaps = 0, prefix = 0, m = 0, bound = 0;
  int history = -1;  // index into the decision pool, -1 for none yet
};

// Beam search over the same decisions; returns the best complete score and
// fills `placed` with its decisions.
int Beam(const Board& b, const Bounds& bounds, int width, std::vector<uint8_t>* placed) {
  const int w = b.width();
  struct Decision {
    int parent;
    uint8_t placed;
  };
  std::vector<Decision> pool;
  std::vector<BeamState> beam(1), next;
  for (int r = 0; r < b.height; ++r) {
    for (int c = 0; c < w; ++c) {
      next.clear();
      for (const BeamState& s : beam) {
        const int n = static_cast<int>(b.columns[c].size());
        const auto push = [&](bool place, int match, bool gap) {
          BeamState t = s;
          if (place) ++t.k[c];
          t.m += match;
          t.gaps += gap;
          pool.push_back({s.history, static_cast<uint8_t>(place)});
          t.history = static_cast<int>(pool.size()) - 1;
          if (c + 1 == w) {
            t.prefix += RowScore(t.m, w, b.row_bonus);
            t.m = 0;
            t.bound =
                r + 1 == b.height ? t.prefix : bounds.Bound(r + 1, 0, t.k.data(), t.prefix, 0);
          } else {
            t.bound = bounds.Bound(r, c + 1, t.k.data(), t.prefix, t.m);
          }
          next.push_back(t);
        };
        if (s.k[c] == n) {
          push(false, 0, false);
          continue;
        }
        push(true, (b.guides[r] >> b.columns[c][s.k[c]]) & 1, false);
        if (n - s.k[c] <= b.height - r - 1 && (b.max_gaps == 0 || s.gaps < b.max_gaps)) {
          push(false, 0, true);
        }
      }
      // Keep the `width` most promising; equal states keep the best prefix.
      std::stable_sort(next.begin(), next.end(), [](const BeamState& x, const BeamState& y) {
        return x.bound != y.bound ? x.bound > y.bound : x.prefix > y.prefix;
      });
      beam.clear();
      for (const BeamState& t : next) {
        if (static_cast<int>(beam.size()) == width) break;
        const bool dup = std::any_of(beam.begin(), beam.end(), [&](const BeamState& u) {
          return u.k == t.k && u.gaps == t.gaps && u.m == t.m;
        });
        if (!dup) beam.push_back(t);
      }
    }
  }
  const BeamState& best = beam.front();  // complete: bound == prefix, sorted
  placed->assign(static_cast<size_t>(b.height) * w, 0);
  for (int h = best.history, cell = b.height * w - 1; h >= 0; h = pool[h].parent, --cell) {
    (*placed)[cell] = pool[h].placed;
  }
  return best.prefix;
}

}  // namespace

BestResult BestScore(const Board& board, const GreedyResult& greedy, int64_t node_budget,
                     int beam_width) {
  const Bounds bounds(board);
  BestResult result;
  result.layout = greedy.layout;
  result.score = greedy.score();
  BranchAndBound bnb(board, bounds, greedy.score(), node_budget);
  result.exact = bnb.Run();
  result.nodes = bnb.nodes();
  if (bnb.best() > result.score) {
    result.score = bnb.best();
    result.layout = LayoutOf(board, bnb.best_placed());
  }
  if (result.exact) return result;
  std::vector<uint8_t> placed;
  const int beam = Beam(board, bounds, beam_width, &placed);
  if (beam > result.score) {
    result.score = beam;
    result.layout = LayoutOf(board, placed);
  }
  return result;
}

}  // namespace foundry::puzzles::alignment
