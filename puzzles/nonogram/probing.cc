#include "puzzles/nonogram/probing.h"

#include <utility>
#include <vector>

namespace foundry::puzzles::nonogram {

ProbeOutcome ProbeInLayers(Board& board, const Rows* hint) {
  ProbeOutcome out;
  const int w = board.width(), h = board.height();
  std::vector<std::pair<int, bool>> settled;  // (cell, filled) found in this layer
  // safe[v][r]: cells of row r whose probe with value v (1 filled, 0
  // empty) cannot contradict in this layer, because an earlier probe that
  // did not contradict implied that value there: what the later probe
  // would derive, the earlier one derived too.
  uint64_t safe[2][kMaxSide];
  while (board.open() > 0) {
    settled.clear();
    for (int r = 0; r < h; ++r) safe[0][r] = safe[1][r] = 0;
    for (int r = 0; r < h; ++r) {
      for (int c = 0; c < w; ++c) {
        if (board.Known(r, c)) continue;
        for (const bool value : {true, false}) {
          if (hint != nullptr && ((((*hint)[static_cast<size_t>(r)] >> c) & 1ULL) != 0) == value)
            continue;
          if ((safe[value][r] >> c) & 1ULL) continue;
          Board trial = board;
          trial.Set(r, c, value);
          if (trial.Propagate(Rule::kFull)) {
            for (int y = 0; y < h; ++y) {
              safe[1][y] |= trial.RowFill(y) & ~board.RowFill(y);
              safe[0][y] |= trial.RowEmpty(y) & ~board.RowEmpty(y);
            }
            continue;
          }
          settled.emplace_back(r * w + c, !value);  // the supposition contradicts
          break;
        }
      }
    }
    if (settled.empty()) break;
    ++out.layers;
    out.forced += static_cast<int>(settled.size());
    for (const auto& [cell, filled] : settled) {
      if (!board.Set(cell / w, cell % w, filled)) out.consistent = false;
    }
    if (!out.consistent || !board.Propagate(Rule::kFull)) {
      out.consistent = false;
      break;
    }
  }
  return out;
}

}  // namespace foundry::puzzles::nonogram
