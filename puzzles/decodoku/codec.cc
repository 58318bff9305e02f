#include "puzzles/decodoku/codec.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/json_number.h"

namespace foundry::puzzles::decodoku {
namespace {

bool AsInt(const nlohmann::json& v, int64_t lo, int64_t hi, int* out) {
  const auto x = IntInRange(v, lo, hi);
  if (x) *out = static_cast<int>(*x);
  return x.has_value();
}

// Reads an n x n array of integers in lo..hi into `out` (row-major).
Status ReadSquare(const nlohmann::json& j, const char* name, int n, int64_t lo, int64_t hi,
                  std::vector<int>* out) {
  if (!j.is_array() || j.size() != static_cast<size_t>(n)) {
    return Status::InvalidArgument(fmt::format("puzzle '{}' must be an array of {} rows", name, n));
  }
  out->clear();
  for (int y = 0; y < n; ++y) {
    const auto& row = j[y];
    if (!row.is_array() || row.size() != static_cast<size_t>(n)) {
      return Status::InvalidArgument(
          fmt::format("puzzle '{}'[{}] must be an array of {} integers", name, y, n));
    }
    for (int x = 0; x < n; ++x) {
      int v = 0;
      if (!AsInt(row[x], lo, hi, &v)) {
        return Status::InvalidArgument(
            fmt::format("puzzle '{}'[{}][{}] must be an integer in {}..{}", name, y, x, lo, hi));
      }
      out->push_back(v);
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Grid> ParsePuzzle(const nlohmann::json& puzzle) {
  if (!puzzle.is_object())
    return Status::InvalidArgument("puzzle must be an object with size, grid and clusters");
  for (const auto& [key, value] : puzzle.items()) {
    if (key != "size" && key != "grid" && key != "clusters") {
      return Status::InvalidArgument(fmt::format(
          "puzzle has unknown key '{}' (known: size, grid, clusters)", QuoteInput(key)));
    }
  }
  for (const char* key : {"size", "grid", "clusters"}) {
    if (!puzzle.contains(key))
      return Status::InvalidArgument(fmt::format("puzzle is missing '{}'", key));
  }
  int n = 0;
  if (!AsInt(puzzle["size"], kMinSize, kMaxSize, &n)) {
    return Status::InvalidArgument(
        fmt::format("puzzle 'size' must be an integer in {}..{}", kMinSize, kMaxSize));
  }
  std::vector<int> values, clusters;
  if (Status s = ReadSquare(puzzle["grid"], "grid", n, 0, 9, &values); !s.ok()) return s;
  if (Status s = ReadSquare(puzzle["clusters"], "clusters", n, 0, int64_t{16} * n * n, &clusters);
      !s.ok()) {
    return s;
  }
  Grid g = Grid::Empty(n);
  for (int i = 0; i < n * n; ++i) {
    if ((values[i] == 0) != (clusters[i] == 0)) {
      return Status::InvalidArgument(fmt::format(
          "puzzle 'clusters'[{}][{}] must be 0 exactly where the grid is empty", i / n, i % n));
    }
    g.values[i] = static_cast<uint8_t>(values[i]);
    g.clusters[i] = clusters[i];
  }
  RenumberClusters(g);
  return g;
}

Result<std::pair<std::vector<Move>, int>> ParseSolution(const nlohmann::json& solution) {
  const auto bad = [](const std::string& what) {
    return Status::InvalidArgument("solution " + what);
  };
  if (!solution.is_object() || solution.size() != 2 || !solution.contains("moves") ||
      !solution.contains("par")) {
    return bad("must be an object {\"moves\": [[x1,y1,x2,y2],...], \"par\": N}");
  }
  const auto& moves = solution["moves"];
  if (!moves.is_array() || moves.size() > static_cast<size_t>(kMaxSolutionMoves)) {
    return bad(fmt::format("'moves' must be an array of at most {} moves", kMaxSolutionMoves));
  }
  std::pair<std::vector<Move>, int> out;
  for (size_t k = 0; k < moves.size(); ++k) {
    const auto& m = moves[k];
    int c[4];
    if (!m.is_array() || m.size() != 4 || !AsInt(m[0], 0, kMaxSize, &c[0]) ||
        !AsInt(m[1], 0, kMaxSize, &c[1]) || !AsInt(m[2], 0, kMaxSize, &c[2]) ||
        !AsInt(m[3], 0, kMaxSize, &c[3])) {
      return bad(
          fmt::format("'moves'[{}] must be [x1,y1,x2,y2] of small non-negative integers", k));
    }
    out.first.push_back({c[0], c[1], c[2], c[3]});
  }
  if (!AsInt(solution["par"], 0, kMaxSolutionMoves, &out.second)) {
    return bad("'par' must be a non-negative integer");
  }
  return out;
}

nlohmann::json PuzzleJson(const Grid& grid) {
  Grid g = grid;
  RenumberClusters(g);
  nlohmann::json rows = nlohmann::json::array(), clusters = nlohmann::json::array();
  for (int y = 0; y < g.size; ++y) {
    nlohmann::json row = nlohmann::json::array(), crow = nlohmann::json::array();
    for (int x = 0; x < g.size; ++x) {
      row.push_back(g.At(x, y));
      crow.push_back(g.ClusterAt(x, y));
    }
    rows.push_back(std::move(row));
    clusters.push_back(std::move(crow));
  }
  return {{"size", g.size}, {"grid", std::move(rows)}, {"clusters", std::move(clusters)}};
}

nlohmann::json SolutionJson(const std::vector<Move>& moves) {
  nlohmann::json list = nlohmann::json::array();
  for (const Move& m : moves) list.push_back({m.x1, m.y1, m.x2, m.y2});
  return {{"moves", std::move(list)}, {"par", moves.size()}};
}

std::string CanonicalBytes(const Grid& g) {
  // Built by hand, not with a map and fmt per symmetry: this runs for every
  // candidate. Same bytes as ever (CanonicalBytesKeepTheirLayout).
  const int n = g.size;
  // Cluster c's new id is renumber[c - lo]; 0 until it first appears.
  const auto [lo_it, hi_it] = std::minmax_element(g.clusters.begin(), g.clusters.end());
  const int lo = g.clusters.empty() ? 0 : *lo_it, hi = g.clusters.empty() ? 0 : *hi_it;
  std::vector<int> renumber(static_cast<size_t>(hi - lo) + 1);
  std::string best, bytes;
  for (int sym = 0; sym < 8; ++sym) {
    // Transposition (bit 2), then mirror in x (bit 0) and in y (bit 1).
    const auto source = [&](int x, int y) {
      int sx = sym & 4 ? y : x, sy = sym & 4 ? x : y;
      if (sym & 1) sx = n - 1 - sx;
      if (sym & 2) sy = n - 1 - sy;
      return sy * n + sx;
    };
    bytes = std::to_string(n);
    bytes += '|';
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) bytes += static_cast<char>('0' + g.values[source(x, y)]);
    }
    bytes += '|';
    std::fill(renumber.begin(), renumber.end(), 0);
    int next_id = 1;
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) {
        const int c = g.clusters[source(x, y)];
        int id = 0;
        if (c != 0) {
          int& slot = renumber[static_cast<size_t>(c - lo)];
          if (slot == 0) slot = next_id++;
          id = slot;
        }
        if (x != 0 || y != 0) bytes += ',';
        char digits[12];
        bytes.append(digits, std::to_chars(digits, digits + sizeof digits, id).ptr);
      }
    }
    if (best.empty() || bytes < best) best.swap(bytes);  // bytes is rebuilt next round
  }
  return best;
}

std::string RenderText(const Grid& g) {
  std::string text = fmt::format(
      "Clear the {0}x{0} grid: move a number to a neighbouring square, where it is added mod 10 "
      "(a sum of 10 vanishes). Numbers in the same cluster sum to 0 mod 10.\n",
      g.size);
  for (int y = 0; y < g.size; ++y) {
    std::string digits, letters;
    for (int x = 0; x < g.size; ++x) {
      const int v = g.At(x, y), c = g.ClusterAt(x, y);
      digits += v == 0 ? '.' : static_cast<char>('0' + v);
      letters += c == 0 ? '.' : static_cast<char>(c <= 26 ? 'a' + c - 1 : '*');
    }
    text += fmt::format("{}   {}\n", digits, letters);
  }
  text += "Left: the numbers; right: their clusters.";
  return text;
}

}  // namespace foundry::puzzles::decodoku
