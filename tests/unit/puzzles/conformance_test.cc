// The conformance suite: every registered family keeps the family contract.
// A new family gets these tests by its registration line alone: the params,
// generation and Verify(), canonical bytes, and the drawing (RenderSvg) and
// typed answers (FormatAnswer, CheckAnswer, AnswerPrompt).
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "puzzles/levels.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace foundry::puzzles {
namespace {

constexpr int kWanted = 20;
constexpr int kAttempts = 4000;

class ConformanceTest : public ::testing::TestWithParam<const Family*> {
 protected:
  const Family& family() const { return *GetParam(); }
  Params Defaults() const { return *family().MakeParams(std::map<std::string, std::string>{}); }

  // Up to kWanted accepted candidates of a fixed stream.
  std::vector<Accepted> Sample(uint64_t seed = 99) const {
    std::vector<Accepted> out;
    const Params params = Defaults();
    for (int i = 0; i < kAttempts && static_cast<int>(out.size()) < kWanted; ++i) {
      Rng rng = CandidateRng(seed, static_cast<uint64_t>(i));
      Candidate c = family().Generate(rng, params);
      if (auto* a = std::get_if<Accepted>(&c)) out.push_back(std::move(*a));
    }
    return out;
  }
};

TEST_P(ConformanceTest, IdentityIsWellFormed) {
  EXPECT_FALSE(family().name().empty());
  EXPECT_GE(family().id_prefix().size(), 2u);
  EXPECT_FALSE(family().summary().empty());
  for (const Family* other : AllFamilies()) {
    if (other == GetParam()) continue;
    EXPECT_NE(other->name(), family().name());
    EXPECT_NE(other->id_prefix(), family().id_prefix());
  }
}

TEST_P(ConformanceTest, DefaultParamsRoundTripThroughJson) {
  const Params p = Defaults();
  for (const auto& spec : family().param_specs())
    EXPECT_TRUE(p.json().contains(spec.key)) << spec.key;
  auto again = family().MakeParams(p.json());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->json(), p.json());
  auto bad = family().MakeParams(std::map<std::string, std::string>{{"no_such_key", "1"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("no_such_key"), std::string::npos);
}

TEST_P(ConformanceTest, GeneratedPuzzlesVerifyAtTheirOwnGrade) {
  const auto sample = Sample();
  ASSERT_FALSE(sample.empty()) << "no candidate accepted in " << kAttempts;
  for (const Accepted& a : sample) {
    auto d = family().Verify(a.puzzle, a.solution);
    ASSERT_TRUE(d.ok()) << d.status().ToString() << "\n" << a.puzzle.dump();
    EXPECT_EQ(d->level, a.difficulty.level);
    EXPECT_TRUE(IsLevel(a.difficulty.level)) << a.difficulty.level;
    EXPECT_GE(a.difficulty.score, 0.0);
    EXPECT_LE(a.difficulty.score, 1.0);
    EXPECT_FALSE(family().RenderText(a.puzzle).empty());
  }
}

TEST_P(ConformanceTest, JsonRoundTripKeepsThePuzzleAndItsId) {
  for (const Accepted& a : Sample()) {
    const auto puzzle = nlohmann::json::parse(a.puzzle.dump());
    const auto solution = nlohmann::json::parse(a.solution.dump());
    ASSERT_TRUE(family().Verify(puzzle, solution).ok());
    EXPECT_EQ(family().CanonicalBytes(puzzle), family().CanonicalBytes(a.puzzle));
    const std::string id = PuzzleId(family(), family().CanonicalBytes(puzzle));
    EXPECT_TRUE(LooksLikePuzzleId(id)) << id;
    EXPECT_EQ(id.substr(0, family().id_prefix().size() + 1),
              std::string(family().id_prefix()) + "-");
  }
}

TEST_P(ConformanceTest, SameSeedSamePuzzleDifferentSeedDifferentStream) {
  const auto a = Sample(5), b = Sample(5), c = Sample(6);
  ASSERT_EQ(a.size(), b.size());
  std::set<std::string> ca, cc;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].puzzle.dump(), b[i].puzzle.dump());
    EXPECT_EQ(a[i].solution.dump(), b[i].solution.dump());
    ca.insert(family().CanonicalBytes(a[i].puzzle));
  }
  for (const auto& x : c) cc.insert(family().CanonicalBytes(x.puzzle));
  if (ca.size() > 3) {
    EXPECT_NE(ca, cc);
  }
}

TEST_P(ConformanceTest, AnotherPuzzlesSolutionIsRefused) {
  const auto sample = Sample();
  int checked = 0;
  for (size_t i = 1; i < sample.size(); ++i) {
    if (sample[i].solution == sample[0].solution) continue;
    EXPECT_FALSE(family().Verify(sample[0].puzzle, sample[i].solution).ok());
    ++checked;
  }
  if (sample.size() > 3) {
    EXPECT_GT(checked, 0);
  }
}

TEST_P(ConformanceTest, MalformedJsonIsInvalidArgumentNotACrash) {
  for (const nlohmann::json& junk :
       {nlohmann::json(nullptr), nlohmann::json(42), nlohmann::json::array(),
        nlohmann::json::object(), nlohmann::json{{"unexpected", true}}}) {
    auto r = family().Verify(junk, junk);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument) << r.status().ToString();
  }
}

// Each level owns its quarter of the score range (levels.h): the store's
// observed levels and the refusal of a goal whose level and score range
// miss each other rely on it.
TEST_P(ConformanceTest, EachLevelsScoresLieInItsQuarter) {
  const std::vector<Accepted> sample = Sample();
  ASSERT_FALSE(sample.empty());
  for (const Accepted& a : sample) {
    const auto level = std::find(std::begin(kLevels), std::end(kLevels), a.difficulty.level);
    ASSERT_NE(level, std::end(kLevels)) << a.difficulty.level;
    const ScoreRange range = LevelScores(static_cast<size_t>(level - std::begin(kLevels)));
    EXPECT_GE(a.difficulty.score, range.lo) << a.difficulty.level;
    EXPECT_LE(a.difficulty.score, range.hi) << a.difficulty.level;
  }
}

// A stored or imported puzzle with an unknown key is refused, and a long
// key comes back in the error as a short quote, not whole.
TEST_P(ConformanceTest, AnUnknownKeyIsRefusedAndQuotedShort) {
  const std::vector<Accepted> sample = Sample();
  ASSERT_FALSE(sample.empty());
  const std::string key(5000, 'k');
  nlohmann::json puzzle = sample.front().puzzle;
  ASSERT_TRUE(puzzle.is_object()) << "every family's puzzle JSON is an object";
  puzzle[key] = 1;
  auto r = family().Verify(puzzle, sample.front().solution);
  ASSERT_FALSE(r.ok()) << "an unknown key in the puzzle must be refused";
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument)
      << r.status().message().substr(0, 200);
  EXPECT_LT(r.status().message().size(), 400u) << r.status().message().substr(0, 200);
  EXPECT_NE(r.status().message().find("(5000 bytes)"), std::string::npos)
      << r.status().message().substr(0, 200);
}

// ---- drawings and typed answers ----

// Why `svg` is not a well-formed document in the shape RenderSvg()
// promises, or "" when it is: the root element opens it and closes it,
// every start tag is closed in order, and text holds only the five XML
// entities (or numeric ones) after '&'.
std::string SvgProblem(const std::string& svg) {
  const std::string head = "<svg xmlns=\"http://www.w3.org/2000/svg\"";
  if (svg.rfind(head, 0) != 0) return "does not start with " + head;
  if (svg.size() < 6 || svg.compare(svg.size() - 6, 6, "</svg>") != 0)
    return "does not end with </svg>";
  const size_t root_end = svg.find('>');
  const std::string root = svg.substr(0, root_end);
  for (const char* attr : {" width=\"", " height=\"", " viewBox=\""}) {
    if (root.find(attr) == std::string::npos) return std::string("the root lacks") + attr;
  }
  std::vector<std::string> open;
  size_t i = 0;
  while (i < svg.size()) {
    if (svg[i] == '&') {
      const size_t semi = svg.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return "a bare '&' at " + std::to_string(i);
      const std::string entity = svg.substr(i + 1, semi - i - 1);
      static const std::set<std::string> kKnown = {"amp", "lt", "gt", "quot", "apos"};
      if (!kKnown.count(entity) && (entity.empty() || entity[0] != '#'))
        return "unknown entity &" + entity + ";";
      i = semi + 1;
      continue;
    }
    if (svg[i] == '>') return "a bare '>' in text at " + std::to_string(i);
    if (svg[i] != '<') {
      ++i;
      continue;
    }
    if (svg.compare(i, 4, "<!--") == 0) {
      const size_t end = svg.find("-->", i);
      if (end == std::string::npos) return "an unclosed comment";
      i = end + 3;
      continue;
    }
    // A tag: find its end outside attribute values.
    size_t j = i + 1;
    bool quoted = false;
    while (j < svg.size() && (quoted || svg[j] != '>')) {
      if (svg[j] == '"') quoted = !quoted;
      if (quoted && (svg[j] == '<' || svg[j] == '>'))
        return "a raw '<' or '>' in an attribute at " + std::to_string(j);
      ++j;
    }
    if (j >= svg.size()) return "an unclosed tag at " + std::to_string(i);
    const std::string tag = svg.substr(i + 1, j - i - 1);
    if (tag.empty()) return "an empty tag at " + std::to_string(i);
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) {
        return "</" + name + "> closes " +
               (open.empty() ? std::string("nothing") : "<" + open.back() + ">");
      }
      open.pop_back();
      if (open.empty() && j + 1 != svg.size()) return "content after the root element";
    } else if (tag.back() != '/') {
      const size_t name_end = tag.find_first_of(" \t\n");
      open.push_back(tag.substr(0, name_end));
    }
    i = j + 1;
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return "";
}

TEST(SvgProblemTest, TheCheckerCatchesBrokenDocuments) {
  const std::string head =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\" viewBox=\"0 0 1 1\">";
  EXPECT_EQ(SvgProblem(head + "<g><text>a &amp; b</text></g><rect/></svg>"), "");
  EXPECT_NE(SvgProblem(head + "<g><text>a</g></text></svg>"), "");
  EXPECT_NE(SvgProblem(head + "<text>a & b</text></svg>"), "");
  EXPECT_NE(SvgProblem(head + "<text>a < b</text></svg>"), "");
  EXPECT_NE(SvgProblem(head + "<text>a</text>"), "");
  EXPECT_NE(SvgProblem(head + "<text x=\"<\">a</text></svg>"), "");
  EXPECT_NE(SvgProblem("<svg width=\"1\"></svg>"), "");
}

constexpr size_t kAnswerSample = 5;

TEST_P(ConformanceTest, SvgIsAWellFormedDocumentWithAndWithoutTheSolution) {
  const auto sample = Sample();
  ASSERT_FALSE(sample.empty());
  for (size_t k = 0; k < sample.size() && k < kAnswerSample; ++k) {
    const Accepted& a = sample[k];
    const std::string bare = family().RenderSvg(a.puzzle, nullptr);
    const std::string solved = family().RenderSvg(a.puzzle, &a.solution);
    EXPECT_EQ(SvgProblem(bare), "") << bare;
    EXPECT_EQ(SvgProblem(solved), "") << solved;
    EXPECT_NE(bare, solved) << "the solution does not show";
  }
  // A puzzle that cannot be read still gives a document.
  for (const nlohmann::json& junk :
       {nlohmann::json(nullptr), nlohmann::json{{"unexpected", "<&>"}}}) {
    const std::string svg = family().RenderSvg(junk, &junk);
    EXPECT_EQ(SvgProblem(svg), "") << svg;
  }
}

// Well-formed variants of `answer` first by one changed character, then by
// two swapped words: candidates for a wrong answer.
std::vector<std::string> Mutations(const std::string& answer) {
  std::vector<std::string> out;
  for (size_t i = 0; i < answer.size(); ++i) {
    const char ch = answer[i];
    std::string others;
    if (ch >= '0' && ch <= '9')
      others = "0123456789";
    else if (ch >= 'a' && ch <= 'z')
      others = "abcdefghijklmnopqrstuvwxyz";
    else if (ch >= 'A' && ch <= 'Z')
      others = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (char o : others) {
      if (o == ch) continue;
      std::string m = answer;
      m[i] = o;
      out.push_back(std::move(m));
    }
  }
  std::vector<std::pair<size_t, size_t>> words;  // [begin, end)
  for (size_t i = 0; i < answer.size();) {
    while (i < answer.size() && answer[i] == ' ') ++i;
    const size_t b = i;
    while (i < answer.size() && answer[i] != ' ') ++i;
    if (i > b) words.emplace_back(b, i);
  }
  for (size_t x = 0; x < words.size(); ++x) {
    for (size_t y = x + 1; y < words.size(); ++y) {
      const auto [xb, xe] = words[x];
      const auto [yb, ye] = words[y];
      const std::string wx = answer.substr(xb, xe - xb), wy = answer.substr(yb, ye - yb);
      if (wx == wy) continue;
      out.push_back(answer.substr(0, xb) + wy + answer.substr(xe, yb - xe) + wx +
                    answer.substr(ye));
    }
  }
  return out;
}

TEST_P(ConformanceTest, TheFormattedAnswerIsRightAndAMutatedOneWrong) {
  const auto sample = Sample();
  ASSERT_FALSE(sample.empty());
  for (size_t k = 0; k < sample.size() && k < kAnswerSample; ++k) {
    const Accepted& a = sample[k];
    const std::string answer = family().FormatAnswer(a.puzzle, a.solution);
    ASSERT_FALSE(answer.empty()) << a.solution.dump();
    auto right = family().CheckAnswer(a.puzzle, a.solution, answer);
    ASSERT_TRUE(right.ok()) << right.status().ToString() << "\nanswer: " << answer;
    EXPECT_TRUE(*right) << answer;
    // Spacing and case do not matter.
    std::string loud;  // upper case, every space tripled
    for (char ch : answer) {
      if (ch == ' ') loud += "  ";
      loud += ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
    }
    auto again = family().CheckAnswer(a.puzzle, a.solution, "  " + loud + "\n");
    ASSERT_TRUE(again.ok()) << again.status().ToString() << "\nanswer: " << loud;
    EXPECT_TRUE(*again) << loud;

    bool wrong_found = false;
    for (const std::string& m : Mutations(answer)) {
      auto r = family().CheckAnswer(a.puzzle, a.solution, m);
      if (!r.ok()) {
        ASSERT_EQ(r.status().code(), Status::Code::kInvalidArgument) << r.status().ToString();
        continue;
      }
      if (!*r) {
        wrong_found = true;
        break;
      }
    }
    EXPECT_TRUE(wrong_found) << "no mutation of '" << answer << "' is a wrong answer";

    const std::string prompt = family().AnswerPrompt(a.puzzle);
    EXPECT_FALSE(prompt.empty());
    EXPECT_EQ(prompt.find('\n'), std::string::npos) << prompt;
  }
}

TEST_P(ConformanceTest, GarbageAnswersAreInvalidArgument) {
  const auto sample = Sample();
  ASSERT_FALSE(sample.empty());
  const Accepted& a = sample[0];
  for (const char* junk : {"", "   ", "?!<>&", "hello world", "12345678901234567890123456789012345",
                           "\xff\xfe", "none of these"}) {
    auto r = family().CheckAnswer(a.puzzle, a.solution, junk);
    ASSERT_FALSE(r.ok()) << "'" << junk << "' judged " << *r;
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument) << r.status().ToString();
    EXPECT_FALSE(r.status().message().empty());
  }
  // A puzzle that cannot be read is an error too, not a crash.
  auto r = family().CheckAnswer(nlohmann::json(42), a.solution, "1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(AllFamilies, ConformanceTest,
                         ::testing::ValuesIn(AllFamilies().begin(), AllFamilies().end()),
                         [](const ::testing::TestParamInfo<const Family*>& info) {
                           std::string n(info.param->name());
                           for (char& ch : n) {
                             if (ch == '-') ch = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace foundry::puzzles
