#include "puzzles/balance/svg.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "puzzles/balance/codec.h"
#include "puzzles/svg.h"

namespace foundry::puzzles::balance {
namespace {

constexpr double kMargin = 20;
constexpr int kPerRow = 8;                 // coin discs per row in a pan
constexpr double kPitch = 26, kDisc = 11;  // disc spacing and radius
constexpr double kPanW = kPerRow * kPitch + 12;
constexpr double kTilt = 8;  // how far a heavier pan sinks

void Coin(svg::Document& doc, double cx, double cy, int coin, bool marked) {
  doc.Circle(cx, cy, kDisc,
             marked      ? "#ffcdd2"
             : coin == 0 ? "#e0e0e0"
                         : "#fff3c4",
             marked ? "#c62828" : "#8d6e00", marked ? 2.5 : 1.2);
  doc.Text(cx, cy, std::to_string(coin),
           {.size = coin >= 100 ? 9.0 : 11.0,
            .anchor = "middle",
            .bold = marked,
            .centered_vertically = true});
}

double PanHeight(size_t coins) {
  const auto rows = std::max<size_t>(1, (coins + kPerRow - 1) / kPerRow);
  return static_cast<double>(rows) * kPitch + 10;
}

// A pan box with its coins, top-left (x, y); the coin `marked` (-1: none)
// stands out.
void Pan(svg::Document& doc, double x, double y, const std::vector<int>& coins, int marked) {
  doc.Rect(x, y, kPanW, PanHeight(coins.size()), "#f5f5f5", "#666", 1.5, "rx=\"8\"");
  for (size_t k = 0; k < coins.size(); ++k) {
    const double cx = x + 6 + kPitch / 2 + static_cast<double>(k % kPerRow) * kPitch;
    const double cy = y + 5 + kPitch / 2 + static_cast<double>(k / kPerRow) * kPitch;
    Coin(doc, cx, cy, coins[k], marked == coins[k]);
  }
}

std::string RenderDeduction(const DeductionPuzzle& p, const nlohmann::json* solution) {
  svg::Document doc(fmt::format("Balance: {} coins, {} weighings", p.coins, p.weighings.size()));
  doc.Text(kMargin, 32, "Balance: find the counterfeit", {.size = 18, .bold = true});
  const double top = doc.Lines(
      kMargin, 58,
      svg::Wrap(fmt::format("{} coins look alike; one is counterfeit, heavier or lighter than the "
                            "others. The scale showed:",
                            p.coins),
                80),
      20);
  std::optional<Hypothesis> answer;
  std::string note;
  if (solution != nullptr) {
    auto h = ParseDeductionSolution(*solution, p.coins);
    if (h.ok())
      answer = *h;
    else
      note = "invalid solution: " + h.status().message();
  }
  const int marked = answer ? answer->coin : -1;
  const double left_x = kMargin + 34, glyph_x = left_x + kPanW, right_x = glyph_x + 120;
  const double result_x = right_x + kPanW + 24;
  double y = top;
  for (size_t k = 0; k < p.weighings.size(); ++k) {
    const Weighing& w = p.weighings[k];
    const Outcome o = p.outcomes[k];
    const double tall = std::max(PanHeight(w.left.size()), PanHeight(w.right.size()));
    const double mid = y + kTilt + tall / 2 + 4;
    const double tilt = o == Outcome::kLeftHeavy ? kTilt : o == Outcome::kRightHeavy ? -kTilt : 0;
    if (k % 2 == 1)
      doc.Rect(kMargin - 6, y, result_x + 130 - kMargin, tall + 2 * kTilt + 12, "#f7f9fc");
    doc.Text(kMargin, mid, fmt::format("{}.", k + 1),
             {.size = 15, .fill = "#555", .bold = true, .centered_vertically = true});
    Pan(doc, left_x, mid - PanHeight(w.left.size()) / 2 + tilt, w.left, marked);
    Pan(doc, right_x, mid - PanHeight(w.right.size()) / 2 - tilt, w.right, marked);
    // The scale: a fulcrum and a beam tilted toward the heavier pan.
    const double cx = glyph_x + 60;
    doc.Path(
        fmt::format("M {} {} L {} {} L {} {} Z", svg::Num(cx), svg::Num(mid), svg::Num(cx - 12),
                    svg::Num(mid + 26), svg::Num(cx + 12), svg::Num(mid + 26)),
        "#90a4ae", "#455a64", 1.5);
    doc.Line(glyph_x + 8, mid + tilt, glyph_x + 112, mid - tilt, "#455a64", 4,
             "stroke-linecap=\"round\"");
    const std::string_view words = o == Outcome::kBalanced    ? "balance"
                                   : o == Outcome::kLeftHeavy ? "left heavier"
                                                              : "right heavier";
    doc.Text(result_x, mid, words, {.size = 15, .bold = true, .centered_vertically = true});
    y += tall + 2 * kTilt + 12;
  }
  y += 26;
  doc.Text(kMargin, y, "Which coin is counterfeit, and is it heavier or lighter?", {.bold = true});
  y += 26;
  if (answer) {
    doc.Text(kMargin, y,
             fmt::format("Answer: coin {} is {}.", answer->coin,
                         answer->heavier ? "heavier" : "lighter"),
             {.size = 15, .fill = "#1565c0", .bold = true});
    y += 26;
  }
  if (!note.empty()) y = doc.Lines(kMargin, y, svg::Wrap(note, 90), 18, {.fill = "#b00020"});
  return doc.Finish(result_x + 130, y);
}

// One line of the strategy outline.
struct Entry {
  int depth = 0;
  int parent = -1;   // index of the parent entry
  std::string edge;  // the result leading here ("" at the root)
  std::string text;
  bool leaf = false;
};

// Appends `node` and its subtree to `out` (defensive: the tree may be any JSON).
void Flatten(const nlohmann::json& node, int depth, int parent, std::string edge,
             std::vector<Entry>& out) {
  Entry e{depth, parent, std::move(edge), "", false};
  if (!node.is_object() || depth > kMaxStrategyWeighings + 1) {
    e.text = "?";
    out.push_back(std::move(e));
    return;
  }
  if (node.contains("coin")) {
    const auto heavier = node.find("heavier");
    e.leaf = true;
    e.text = fmt::format("coin {} {}", node["coin"].dump(),
                         heavier != node.end() && heavier->is_boolean() && heavier->get<bool>()
                             ? "heavier"
                             : "lighter");
    out.push_back(std::move(e));
    return;
  }
  const auto pan = [&](const char* side) {
    return node.contains(side) && node[side].is_array() ? PanText(node[side]) : std::string("?");
  };
  e.text = fmt::format("weigh {} against {}", pan("left"), pan("right"));
  out.push_back(std::move(e));
  const int self = static_cast<int>(out.size()) - 1;
  for (const char* branch : {"left_heavy", "balanced", "right_heavy"}) {
    if (!node.contains(branch)) continue;
    std::string name = branch;
    std::replace(name.begin(), name.end(), '_', ' ');
    Flatten(node[branch], depth + 1, self, name, out);
  }
}

std::string RenderStrategy(const StrategyPuzzle& p, const nlohmann::json* solution) {
  svg::Document doc(fmt::format("Balance: {} coins in {} weighings ({})", p.coins, p.weighings,
                                VariantName(p.variant)));
  doc.Text(kMargin, 32, "Balance: plan the weighings", {.size = 18, .bold = true});
  double y = doc.Lines(kMargin, 58, svg::Wrap(RenderText(p), 88), 20);
  y += 6;
  const int first = p.variant == Variant::kReference ? 0 : 1;
  constexpr int kCoinsPerLine = 20;
  for (int c = first; c <= p.coins; ++c) {
    const int i = c - first;
    Coin(doc, kMargin + kDisc + (i % kCoinsPerLine) * kPitch,
         y + kDisc + (i / kCoinsPerLine) * kPitch, c, false);
  }
  y += ((p.coins - first) / kCoinsPerLine + 1) * kPitch + 16;
  double width = std::max(kMargin * 2 + kCoinsPerLine * kPitch, kMargin * 2 + 88 * 8.4);

  if (solution != nullptr) {
    if (!solution->is_object() || !solution->contains("tree")) {
      y = doc.Lines(kMargin, y, {"invalid solution: it must be an object {\"tree\": {...}}"}, 18,
                    {.fill = "#b00020"});
      return doc.Finish(width, y);
    }
    doc.Text(kMargin, y, "A strategy:", {.bold = true});
    y += 14;
    std::vector<Entry> entries;
    Flatten((*solution)["tree"], 0, -1, "", entries);
    constexpr double kStep = 28, kIndent = 34;
    std::vector<double> ys, xs;
    for (const Entry& e : entries) {
      const double x = kMargin + e.depth * kIndent;
      const double top = y;
      double box_x = x;
      if (!e.edge.empty()) {
        doc.Text(x, top + 11, e.edge + ":",
                 {.size = 12, .fill = "#555", .centered_vertically = true});
        box_x += svg::TextWidth(e.edge + ":", 12) + 6;
      }
      const double box_w = svg::TextWidth(e.text, 13) + 14;
      doc.Rect(box_x, top, box_w, 22, e.leaf ? "#e8f5e9" : "#e3f2fd",
               e.leaf ? "#2e7d32" : "#1565c0", 1.2, "rx=\"4\"");
      doc.Text(box_x + 7, top + 11, e.text,
               {.size = 13, .bold = e.leaf, .centered_vertically = true});
      if (e.parent >= 0) {
        const double px = xs[e.parent] + 8;
        doc.Path(fmt::format("M {} {} L {} {} L {} {}", svg::Num(px), svg::Num(ys[e.parent] + 22),
                             svg::Num(px), svg::Num(top + 11), svg::Num(x - 3), svg::Num(top + 11)),
                 "none", "#9e9e9e", 1.2);
      }
      xs.push_back(x);
      ys.push_back(top);
      width = std::max(width, box_x + box_w + kMargin);
      y += kStep;
    }
  }
  return doc.Finish(width, y + 8);
}

}  // namespace

std::string RenderSvg(const nlohmann::json& puzzle, const nlohmann::json* solution) {
  auto strategy = IsStrategy(puzzle);
  if (!strategy.ok()) return svg::ErrorDocument("invalid puzzle: " + strategy.status().message());
  if (*strategy) {
    auto p = ParseStrategy(puzzle);
    if (!p.ok()) return svg::ErrorDocument("invalid puzzle: " + p.status().message());
    return RenderStrategy(*p, solution);
  }
  auto p = ParseDeduction(puzzle);
  if (!p.ok()) return svg::ErrorDocument("invalid puzzle: " + p.status().message());
  return RenderDeduction(*p, solution);
}

}  // namespace foundry::puzzles::balance
