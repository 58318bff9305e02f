#include "puzzles/decodoku/answer.h"

#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/answer_text.h"
#include "puzzles/decodoku/analysis.h"
#include "puzzles/decodoku/codec.h"

namespace foundry::puzzles::decodoku {
namespace {

constexpr std::string_view kForm =
    "type each move as the number's square x,y (from 0 at the top left) and a direction U, D, L "
    "or R, e.g. 0,1R 2,3U";

// The direction letter of a one-step move, or '\0'.
char DirectionOf(const Move& m) {
  if (m.x2 == m.x1 && m.y2 == m.y1 - 1) return 'U';
  if (m.x2 == m.x1 && m.y2 == m.y1 + 1) return 'D';
  if (m.y2 == m.y1 && m.x2 == m.x1 - 1) return 'L';
  if (m.y2 == m.y1 && m.x2 == m.x1 + 1) return 'R';
  return '\0';
}

// The target of moving (x, y) in `direction` ("u", "up", ...), or false.
bool Step(std::string_view direction, Move& m) {
  m.x2 = m.x1;
  m.y2 = m.y1;
  if (direction == "u" || direction == "up")
    --m.y2;
  else if (direction == "d" || direction == "down")
    ++m.y2;
  else if (direction == "l" || direction == "left")
    --m.x2;
  else if (direction == "r" || direction == "right")
    ++m.x2;
  else
    return false;
  return true;
}

Result<std::vector<Move>> ParseMoves(int size, std::string_view text) {
  const auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(fmt::format("{}: {}", what, kForm));
  };
  const std::string folded = FoldName(text);
  if (folded.empty()) return bad("the answer is empty");
  std::vector<Move> moves;
  if (folded == "none") return moves;
  const auto inside = [&](int64_t v) { return v < size; };  // >= 0: read as digits
  TextScanner in(folded);
  for (in.Skip(";(,"); !in.AtEnd(); in.Skip(";(,")) {
    const size_t n = moves.size() + 1;
    const std::string_view rest = in.Rest();
    const std::string shown = QuoteAnswer(rest.substr(0, rest.find(' ')));
    const auto x = in.ReadNumber();
    in.Skip(",");
    const auto y = x ? in.ReadNumber() : std::nullopt;
    if (!x || !y) return bad(fmt::format("move {} {} does not start with a square x,y", n, shown));
    if (!inside(*x) || !inside(*y)) {
      return bad(fmt::format("move {}: there is no square {},{} (x and y are 0..{})", n, *x, *y,
                             size - 1));
    }
    Move m{static_cast<int>(*x), static_cast<int>(*y), 0, 0};
    in.Skip("),");
    const bool to_square = in.Accept('-') ? in.Accept('>') : in.Accept('>');
    if (to_square) {
      in.Skip("(");
      const auto x2 = in.ReadNumber();
      in.Skip(",");
      const auto y2 = x2 ? in.ReadNumber() : std::nullopt;
      if (!x2 || !y2)
        return bad(fmt::format("move {} {} has no target square after '>'", n, shown));
      if (!inside(*x2) || !inside(*y2)) {
        return bad(fmt::format("move {}: there is no square {},{} (x and y are 0..{})", n, *x2, *y2,
                               size - 1));
      }
      m.x2 = static_cast<int>(*x2);
      m.y2 = static_cast<int>(*y2);
      if (std::abs(m.x1 - m.x2) + std::abs(m.y1 - m.y2) != 1) {
        return bad(fmt::format("move {}: {},{} is not next to {},{}", n, m.x2, m.y2, m.x1, m.y1));
      }
      in.Skip(")");
    } else {
      const std::string word = in.ReadWord();
      if (word.empty()) return bad(fmt::format("move {} {} has no direction", n, shown));
      if (!Step(word, m))
        return bad(fmt::format("move {}: unknown direction '{}'", n, QuoteInput(word)));
    }
    moves.push_back(m);
  }
  return moves;
}

}  // namespace

std::string FormatAnswer(const nlohmann::json&, const nlohmann::json& solution) {
  auto s = ParseSolution(solution);
  if (!s.ok()) return "";
  if (s->first.empty()) return "none";
  std::string out;
  for (const Move& m : s->first) {
    const char d = DirectionOf(m);
    if (d == '\0') return "";
    out += fmt::format("{}{},{}{}", out.empty() ? "" : " ", m.x1, m.y1, d);
  }
  return out;
}

Result<bool> CheckAnswer(const nlohmann::json& puzzle, const nlohmann::json& solution,
                         std::string_view text) {
  auto g = ParsePuzzle(puzzle);
  if (!g.ok()) return g.status();
  auto s = ParseSolution(solution);
  if (!s.ok()) return s.status();
  const int par = s->second;
  auto moves = ParseMoves(g->size, text);
  if (!moves.ok()) return moves.status();
  if (static_cast<int>(moves->size()) > par) return false;
  const int n = g->size;
  std::vector<int> v(g->values.begin(), g->values.end());
  for (const Move& m : *moves) {
    const bool on_grid = m.x2 >= 0 && m.y2 >= 0 && m.x2 < n && m.y2 < n;
    if (!on_grid || v[m.y1 * n + m.x1] == 0) return false;
    int& to = v[m.y2 * n + m.x2];
    to = (to + v[m.y1 * n + m.x1]) % 10;
    v[m.y1 * n + m.x1] = 0;
  }
  for (int value : v) {
    if (value != 0) return false;
  }
  return true;
}

std::string AnswerPrompt(const nlohmann::json& puzzle) {
  std::string par;
  if (auto g = ParsePuzzle(puzzle); g.ok()) {
    // Analyze() needs every cluster to sum to 0 mod 10, as Verify() checks.
    std::map<int, int> sums;
    for (size_t i = 0; i < g->values.size(); ++i) sums[g->clusters[i]] += g->values[i];
    bool decodable = true;
    for (const auto& [id, sum] : sums) decodable = decodable && (id == 0 || sum % 10 == 0);
    if (decodable) {
      const int moves = Analyze(*g).decoding.par();
      par = fmt::format(" in at most {} move{}", moves, moves == 1 ? "" : "s");
    }
  }
  return fmt::format(
      "Clear the grid{}: type each move as the number's square x,y (from 0 at the top left) and "
      "a direction U, D, L or R, e.g. 0,1R 2,3U.",
      par);
}

}  // namespace foundry::puzzles::decodoku
