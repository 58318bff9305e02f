#include "bench/player_sim_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <set>

namespace foundry::bench::sim {
namespace {

std::vector<double> AverageRanks(const std::vector<double>& v) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> rank(v.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double r = (static_cast<double>(i) + static_cast<double>(j)) / 2.0;
    for (size_t k = i; k <= j; ++k) rank[order[k]] = r;
    i = j + 1;
  }
  return rank;
}

double Pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n;
  const double mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

}  // namespace

double SolveProbability(double skill, double difficulty) {
  return 1.0 / (1.0 + std::pow(10.0, -(skill - difficulty) / 400.0));
}

double Spearman(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < 2 || a.size() != b.size()) return 0;
  return Pearson(AverageRanks(a), AverageRanks(b));
}

Result<Answers> MakeAnswers(const puzzles::Family& family, const nlohmann::json& puzzle,
                            const nlohmann::json& solution, uint64_t seed) {
  Answers out;
  out.right = family.FormatAnswer(puzzle, solution);
  auto right = family.CheckAnswer(puzzle, solution, out.right);
  if (!right.ok() || !*right) {
    return Status::InvalidArgument("the family's own answer is not judged solved");
  }
  auto wrong = [&](const std::string& text) {
    if (text == out.right) return false;
    auto v = family.CheckAnswer(puzzle, solution, text);
    return v.ok() && !*v;
  };
  uint64_t s = seed;
  const size_t n = out.right.size();

  // One character: most forms are a string of symbols (a grid, digits, a
  // gap layout), where a player's slip is one wrong symbol. Replacements
  // are the answer's own symbols (a family's alphabet: digits, ACGT, '.'
  // and '#') and the digits.
  std::set<char> alphabet(out.right.begin(), out.right.end());
  for (char c = '0'; c <= '9'; ++c) alphabet.insert(c);
  alphabet.erase(' ');
  const std::vector<char> chars(alphabet.begin(), alphabet.end());
  for (int attempt = 0; attempt < 400 && n > 0; ++attempt) {
    std::string text = out.right;
    const size_t pos = Mix(++s) % n;
    if (text[pos] == ' ' || text[pos] == ',') continue;  // keep the form's separators
    text[pos] = chars[Mix(++s) % chars.size()];
    if (wrong(text)) return Answers{out.right, std::move(text)};
  }

  // One word: forms made of words (zebra's items, balance's "coin 5 heavy")
  // need a whole item swapped or replaced. Items are split at ",;:" (zebra's
  // "orange juice" is one) and at spaces too; replacements are the answer's
  // words, the prompt's ("heavy or light") and small numbers.
  std::vector<std::pair<size_t, size_t>> spans;  // [begin, end) of each item
  auto split = [&](std::string_view seps) {
    for (size_t i = 0; i < n;) {
      while (i < n && (seps.find(out.right[i]) != std::string_view::npos)) ++i;
      size_t j = i;
      while (j < n && seps.find(out.right[j]) == std::string_view::npos) ++j;
      if (j > i) spans.emplace_back(i, j);
      i = j;
    }
  };
  split(",;:\n");
  split(" ,;:\n");
  std::set<std::string> words;
  for (auto [b, e] : spans) words.insert(out.right.substr(b, e - b));
  const std::string prompt = family.AnswerPrompt(puzzle);
  for (size_t i = 0; i < prompt.size();) {
    size_t j = i;
    while (j < prompt.size() && std::isalnum(static_cast<unsigned char>(prompt[j]))) ++j;
    if (j > i) words.insert(prompt.substr(i, j - i));
    i = j + 1;
  }
  for (int k = 1; k <= 20; ++k) words.insert(std::to_string(k));
  const std::vector<std::string> vocabulary(words.begin(), words.end());
  auto item = [&](size_t k) {
    return out.right.substr(spans[k].first, spans[k].second - spans[k].first);
  };
  for (int attempt = 0; attempt < 1000 && !spans.empty(); ++attempt) {
    const size_t a = Mix(++s) % spans.size();
    std::string text;
    if (attempt % 2 == 0) {  // swap items a and b (b after a, within one split)
      const size_t b = Mix(++s) % spans.size();
      if (spans[b].first < spans[a].second) continue;
      text = out.right.substr(0, spans[a].first) + item(b) +
             out.right.substr(spans[a].second, spans[b].first - spans[a].second) + item(a) +
             out.right.substr(spans[b].second);
    } else {
      text = out.right.substr(0, spans[a].first) + vocabulary[Mix(++s) % vocabulary.size()] +
             out.right.substr(spans[a].second);
    }
    if (wrong(text)) return Answers{out.right, std::move(text)};
  }
  return Status::InvalidArgument(
      "no change of one character or one word of the answer is a wrong answer: " + out.right);
}

Calibration Calibrate(const std::vector<std::pair<float, bool>>& predictions) {
  Calibration c;
  c.n = predictions.size();
  if (c.n == 0) return c;
  double solved = 0;
  for (const auto& [p, s] : predictions) solved += s ? 1 : 0;
  c.base_rate = solved / static_cast<double>(c.n);
  // Probabilities kept off 0 and 1 so that one confident miss is a large,
  // finite penalty (as scikit-learn's log_loss clips).
  auto loss = [](double p, bool s) {
    p = std::clamp(p, 1e-6, 1 - 1e-6);
    return -std::log(s ? p : 1 - p);
  };
  for (const auto& [p, s] : predictions) {
    c.log_loss += loss(p, s);
    c.brier += (p - (s ? 1.0 : 0.0)) * (p - (s ? 1.0 : 0.0));
    c.base_log_loss += loss(c.base_rate, s);
    c.base_brier += (c.base_rate - (s ? 1.0 : 0.0)) * (c.base_rate - (s ? 1.0 : 0.0));
  }
  const auto n = static_cast<double>(c.n);
  c.log_loss /= n;
  c.brier /= n;
  c.base_log_loss /= n;
  c.base_brier /= n;
  return c;
}

uint64_t Mix(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double UniformOf(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

double NormalOf(uint64_t a, uint64_t b) {
  const double u = 1.0 - UniformOf(a);  // (0, 1]: log is finite
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * UniformOf(b));
}

}  // namespace foundry::bench::sim
