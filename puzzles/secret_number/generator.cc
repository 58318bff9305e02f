#include "puzzles/secret_number/generator.h"

#include <array>
#include <bit>
#include <vector>

#include "puzzles/secret_number/candidate_set.h"
#include "puzzles/secret_number/difficulty.h"
#include "puzzles/secret_number/rules.h"
#include "puzzles/secret_number/tables.h"

namespace foundry::puzzles::secret_number {
namespace {

// Draws one rule. The choices, fixed forever because puzzles depend on them:
// - the subject kind uniformly among the 9 kinds, then the position(s)
//   uniformly within the kind (no draw when the kind has one subject).
//   Uniform over kinds rather than over all subjects keeps pair subjects
//   (15 of each pair kind for 6 digits) from crowding out the others;
// - the op uniformly among eq, ne, lt, gt, mult;
// - the value: for mult a divisor uniformly in 2..9 (never 0 or 1); for
//   the other ops uniformly in the subject's achievable range [min, max] over
//   all numbers of that length. An eq/lt/gt value that leaves nothing is
//   simply redrawn by the caller, as in the seed.
IndexedRule Draw(const Tables& t, Rng& rng) {
  const auto kind = static_cast<SubjectKind>(rng.Below(kSubjectKinds));
  const int count = t.KindCount(kind);
  const int ordinal = count == 1 ? 0 : static_cast<int>(rng.Below(static_cast<uint64_t>(count)));
  IndexedRule r;
  r.subject = t.SubjectIndex(kind, ordinal);
  r.op = static_cast<Op>(rng.Below(kOps));
  r.value = r.op == Op::kMult ? rng.Between(kMinDivisor, kMaxDivisor)
                              : rng.Between(t.min_value(r.subject), t.max_value(r.subject));
  return r;
}

template <typename Set>
std::variant<Draft, std::string_view> Run(const Tables& t, Set& set, Rng& rng,
                                          const GenerateOptions& o) {
  Draft d;
  d.digits = t.digits();
  int n = 0;
  int useful = 0;
  const bool weak = o.aim_level == kWeakRulesLevel;
  while (!set.single()) {
    if (n == o.max_rules) return "too_many_rules";
    // Only the aimed generation counts (a popcount per rule slot).
    const int64_t size = weak ? set.Size() : 0;
    bool placed = false;
    for (int draw = 0; draw < kMaxDrawsPerRule && !placed; ++draw) {
      const IndexedRule r = Draw(t, rng);
      const TrialResult result = set.Trial(r);
      if (result == TrialResult::kEmpty) continue;
      if (result == TrialResult::kUnchanged && !o.allow_redundant) continue;
      if (weak && result == TrialResult::kReduced && set.TrialSize() * kWeakKeep < size) continue;
      useful += result == TrialResult::kReduced;
      set.Commit();
      d.rules[n++] = r;
      placed = true;
    }
    if (!placed) return "no_rule_fits";
  }
  if (n < o.min_rules) return "too_few_rules";
  d.rule_count = n;
  d.number = set.OnlyNumber();
  d.useful_rules = useful;
  d.before_last = set.PreviousSize();
  return d;
}

// ---- the smallest subset of rules that still pins the number ----

// The numbers satisfying rule r, as a Tables row and a flip (every op is
// `row` or `~row`, as in BitCandidates::Trial).
void RuleRow(const Tables& t, const IndexedRule& r, const uint64_t** row, uint64_t* flip) {
  *flip = 0;
  switch (r.op) {
    case Op::kEq:
      *row = t.EqBits(r.subject, r.value);
      break;
    case Op::kNe:
      *row = t.EqBits(r.subject, r.value);
      *flip = ~uint64_t{0};
      break;
    case Op::kLt:
      *row = t.LtBits(r.subject, r.value);
      break;
    case Op::kGt:
      *row = t.LtBits(r.subject, r.value + 1);
      *flip = ~uint64_t{0};
      break;
    case Op::kMult:
      *row = t.MultBits(r.subject, r.value);
      break;
  }
}

// Branch and bound over bitsets: `alive` are the numbers the chosen rules
// leave; the first one other than the answer must be removed by one more
// rule, tried in turn. Same answer as SmallestHittingSet(), different data.
template <int kWords>
void PinSearch(const std::array<uint64_t, kWords>* rows, int rules,
               const std::array<uint64_t, kWords>& alive, uint32_t answer, int depth, int& best) {
  if (depth >= best) return;
  int other = -1;
  for (int w = 0; w < kWords && other < 0; ++w) {
    uint64_t bits = alive[w];
    if (w == static_cast<int>(answer / 64)) bits &= ~(uint64_t{1} << (answer % 64));
    if (bits != 0) other = 64 * w + std::countr_zero(bits);
  }
  if (other < 0) {
    best = depth;
    return;
  }
  if (depth + 1 >= best) return;
  for (int r = 0; r < rules; ++r) {
    if ((rows[r][other / 64] >> (other % 64)) & 1) continue;  // r keeps it
    std::array<uint64_t, kWords> next;
    for (int w = 0; w < kWords; ++w) next[w] = alive[w] & rows[r][w];
    PinSearch<kWords>(rows, rules, next, answer, depth + 1, best);
  }
}

template <int kWords>
int NeededBits(const Tables& t, const Draft& d) {
  std::array<std::array<uint64_t, kWords>, kRulesLimit> rows;
  for (int r = 0; r < d.rule_count; ++r) {
    const uint64_t* row = nullptr;
    uint64_t flip = 0;
    RuleRow(t, d.rules[r], &row, &flip);
    for (int w = 0; w < kWords; ++w) rows[r][w] = (row[w] ^ flip) & t.AllBits()[w];
  }
  std::array<uint64_t, kWords> all;
  for (int w = 0; w < kWords; ++w) all[w] = t.AllBits()[w];
  int best = d.rule_count;
  PinSearch<kWords>(rows.data(), d.rule_count, all,
                    static_cast<uint32_t>(d.number - t.first_number()), 0, best);
  return best;
}

// Digits 4..6 have no bitsets: the rules each number breaks, then the
// hitting set.
int NeededByValues(const Tables& t, const Draft& d) {
  std::vector<uint32_t> masks;
  const auto answer = static_cast<uint32_t>(d.number - t.first_number());
  for (uint32_t i = 0; i < static_cast<uint32_t>(t.size()); ++i) {
    if (i == answer) continue;
    uint32_t mask = 0;
    for (int r = 0; r < d.rule_count; ++r) {
      const IndexedRule& rule = d.rules[r];
      const int64_t v = t.Value(rule.subject, i);
      bool holds = false;
      switch (rule.op) {
        case Op::kEq:
          holds = v == rule.value;
          break;
        case Op::kNe:
          holds = v != rule.value;
          break;
        case Op::kLt:
          holds = v < rule.value;
          break;
        case Op::kGt:
          holds = v > rule.value;
          break;
        case Op::kMult:
          holds = v % rule.value == 0;
          break;
      }
      if (!holds) mask |= 1u << r;
    }
    masks.push_back(mask);
  }
  return SmallestHittingSet(std::move(masks), d.rule_count);
}

}  // namespace

int NeededRules(const Draft& d) {
  const Tables& t = Tables::For(d.digits);
  if (d.digits == 2) return NeededBits<BitsetWords(2)>(t, d);
  if (d.digits == 3) return NeededBits<BitsetWords(3)>(t, d);
  return NeededByValues(t, d);
}

std::variant<Draft, std::string_view> Search(Rng& rng, const GenerateOptions& options) {
  const Tables& t = Tables::For(options.digits);
  if (options.digits == 2) {
    BitCandidates<BitsetWords(2)> set(t);
    return Run(t, set, rng, options);
  }
  if (options.digits == 3) {
    BitCandidates<BitsetWords(3)> set(t);
    return Run(t, set, rng, options);
  }
  ListCandidates set(t);
  return Run(t, set, rng, options);
}

Accepted Materialize(const Draft& draft) { return Materialize(draft, NeededRules(draft)); }

Accepted Materialize(const Draft& draft, int needed_rules) {
  const Tables& t = Tables::For(draft.digits);
  nlohmann::json rules_json = nlohmann::json::array();
  auto& array = rules_json.get_ref<nlohmann::json::array_t&>();
  array.reserve(static_cast<size_t>(draft.rule_count));
  for (int k = 0; k < draft.rule_count; ++k) {
    const IndexedRule& r = draft.rules[k];
    // Keys in sorted order, each inserted at the end (one comparison each).
    nlohmann::json::object_t rule;
    rule.emplace_hint(rule.end(), "op", OpName(r.op));
    rule.emplace_hint(rule.end(), "subject", t.name(r.subject));
    rule.emplace_hint(rule.end(), "text", ComposeRuleText(t.phrase(r.subject), r.op, r.value));
    rule.emplace_hint(rule.end(), "value", r.value);
    array.emplace_back(std::move(rule));
  }
  Accepted a;
  a.puzzle = nlohmann::json::object();
  a.puzzle.emplace("digits", t.digits());
  a.puzzle.emplace("rules", std::move(rules_json));
  a.solution = nlohmann::json::object();
  a.solution.emplace("number", draft.number);
  a.difficulty = RateDifficulty(draft.rule_count, draft.useful_rules, needed_rules);
  return a;
}

Candidate Generate(Rng& rng, const GenerateOptions& options) {
  auto found = Search(rng, options);
  if (auto* reason = std::get_if<std::string_view>(&found)) return Rejected{std::string(*reason)};
  const Draft& draft = std::get<Draft>(found);
  if (options.aim_level < 0) return Materialize(draft);
  // Aimed: grade the draft first; the JSON (most of an accepted candidate's
  // cost) is built only for the level asked for. Family::Generate() would
  // reject the others with the same reason.
  const int needed = NeededRules(draft);
  if (LevelIndexOf(ScoreOf(draft.rule_count, needed)) != options.aim_level) {
    return Rejected{"level"};
  }
  return Materialize(draft, needed);
}

}  // namespace foundry::puzzles::secret_number
