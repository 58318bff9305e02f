#include "puzzles/nonogram/grader.h"

#include <algorithm>

#include "puzzles/nonogram/probing.h"
#include "puzzles/nonogram/search.h"

namespace foundry::puzzles::nonogram {

Grading Grade(Board& board, const Rows* hint, int last, int64_t ambiguity_budget) {
  Grading g;
  const auto stop = [&](int level) {
    g.level = level;
    g.stopped = board.open() > 0 && level == last;
    return g;
  };
  board.MarkAllDirty();
  if (!board.Propagate(Rule::kSimple, &g.simple_sweeps)) {
    g.consistent = false;
    return g;
  }
  if (board.open() == 0 || last == kEasy) return stop(kEasy);
  board.MarkAllDirty();
  if (!board.Propagate(Rule::kFull, &g.line_sweeps)) {
    g.consistent = false;
    return g;
  }
  if (board.open() == 0 || last == kMedium) return stop(kMedium);
  if (ambiguity_budget > 0 && hint != nullptr &&
      FindOtherSolutionNear(board, *hint, ambiguity_budget)) {
    g.ambiguous = true;
    g.level = kExpert;
    return g;
  }
  const ProbeOutcome probe = ProbeInLayers(board, hint);
  g.consistent = probe.consistent;
  g.probes = probe.forced;
  g.probe_layers = probe.layers;
  g.open_after_probing = board.open();
  g.level = board.open() == 0 && probe.layers == 1 ? kHard : kExpert;
  return g;
}

Difficulty ToDifficulty(const Grading& g, int cells) {
  double f = 0;
  switch (g.level) {
    case kEasy:
      f = (g.simple_sweeps - 1.0) / (g.simple_sweeps + 7.0);
      break;
    case kMedium:
      f = (g.line_sweeps - 1.0) / (g.line_sweeps + 7.0);
      break;
    case kHard:
      f = (g.probes - 1.0) / (g.probes + 7.0);
      break;
    default:
      f = static_cast<double>(g.open_after_probing) / std::max(cells, 1);
      break;
  }
  Difficulty d;
  d.level = std::string(kLevels[g.level]);
  d.score = std::clamp((g.level + std::clamp(f, 0.0, 0.999)) / 4.0, 0.0, 1.0);
  d.details = {{"simple_sweeps", g.simple_sweeps},
               {"line_sweeps", g.line_sweeps},
               {"probes", g.probes},
               {"probe_layers", g.probe_layers},
               {"open_after_probing", g.open_after_probing}};
  return d;
}

}  // namespace foundry::puzzles::nonogram
