#include "puzzles/secret_number/rules.h"

#include <charconv>

#include <fmt/format.h>

#include "common/quote.h"

namespace foundry::puzzles::secret_number {
namespace {

constexpr std::string_view kOrdinals[] = {"first", "second", "third", "fourth", "fifth", "sixth"};

// Indexed by SubjectKind: the name in the JSON (before any ":I,J").
constexpr std::string_view kKindNames[] = {
    "digit", "sum", "product", "sum", "diff", "product", "number", "count_even", "count_distinct"};
// Indexed by Op.
constexpr std::string_view kOpNames[] = {"eq", "ne", "lt", "gt", "mult"};
constexpr std::string_view kVerbs[] = {"is", "is not", "is less than", "is greater than",
                                       "is a multiple of"};

// Parses a 1-based position in 1..digits: one decimal digit, nothing else.
bool ParsePosition(std::string_view text, int digits, uint8_t* out) {
  if (text.size() != 1 || text[0] < '1' || text[0] > '0' + digits) return false;
  *out = static_cast<uint8_t>(text[0] - '0');
  return true;
}

// "first two", "last two", "two" (a 2-digit number) or "first and third".
std::string PairWords(int i, int j, int digits) {
  if (digits == 2) return "two";
  if (j == i + 1 && i == 1) return "first two";
  if (j == i + 1 && j == digits) return "last two";
  return fmt::format("{} and {}", kOrdinals[i - 1], kOrdinals[j - 1]);
}

Status UnknownSubject(std::string_view name) {
  return Status::InvalidArgument(fmt::format(
      "unknown subject '{}' (known: digit:K, sum, product, sum:I,J, diff:I,J, product:I,J, "
      "number, count_even, count_distinct)",
      QuoteInput(name)));
}

}  // namespace

std::string SubjectPhrase(const Subject& s, int digits) {
  switch (s.kind) {
    case SubjectKind::kDigit:
      return fmt::format("My {} digit", kOrdinals[s.i - 1]);
    case SubjectKind::kSum:
      return "The sum of my digits";
    case SubjectKind::kProduct:
      return "The product of my digits";
    case SubjectKind::kPairSum:
      return fmt::format("The sum of my {} digits", PairWords(s.i, s.j, digits));
    case SubjectKind::kPairDiff:
      return fmt::format("The difference of my {} digits", PairWords(s.i, s.j, digits));
    case SubjectKind::kPairProduct:
      return fmt::format("The product of my {} digits", PairWords(s.i, s.j, digits));
    case SubjectKind::kNumber:
      return "My number";
    case SubjectKind::kCountEven:
      return "The number of even digits in my number";
    case SubjectKind::kCountDistinct:
      return "The number of different digits in my number";
  }
  return "?";
}

std::string_view OpVerb(Op op) { return kVerbs[static_cast<int>(op)]; }

std::string SubjectName(const Subject& s) {
  const std::string_view base = kKindNames[static_cast<int>(s.kind)];
  if (s.kind == SubjectKind::kDigit) return fmt::format("{}:{}", base, s.i);
  if (IsPairKind(s.kind)) return fmt::format("{}:{},{}", base, s.i, s.j);
  return std::string(base);
}

Result<Subject> ParseSubject(std::string_view name, int digits) {
  const auto bad = [&](std::string_view why) {
    return Status::InvalidArgument(
        fmt::format("subject '{}' {} for a {}-digit number", QuoteInput(name), why, digits));
  };
  const auto colon = name.find(':');
  const std::string_view base = name.substr(0, colon);
  if (colon == std::string_view::npos) {
    if (base == "sum") return Subject{SubjectKind::kSum};
    if (base == "product") return Subject{SubjectKind::kProduct};
    if (base == "number") return Subject{SubjectKind::kNumber};
    if (base == "count_even") return Subject{SubjectKind::kCountEven};
    if (base == "count_distinct") return Subject{SubjectKind::kCountDistinct};
    if (base == "digit" || base == "diff") return bad("needs digit positions");
    return UnknownSubject(name);
  }
  const std::string_view args = name.substr(colon + 1);
  const std::string allowed = fmt::format("positions 1..{}", digits);
  if (base == "digit") {
    Subject s{SubjectKind::kDigit};
    if (!ParsePosition(args, digits, &s.i)) return bad("is out of range (" + allowed + ")");
    return s;
  }
  Subject s;
  if (base == "sum") {
    s.kind = SubjectKind::kPairSum;
  } else if (base == "diff") {
    s.kind = SubjectKind::kPairDiff;
  } else if (base == "product") {
    s.kind = SubjectKind::kPairProduct;
  } else {
    return UnknownSubject(name);
  }
  const auto comma = args.find(',');
  if (comma == std::string_view::npos || !ParsePosition(args.substr(0, comma), digits, &s.i) ||
      !ParsePosition(args.substr(comma + 1), digits, &s.j)) {
    return bad("needs two " + allowed);
  }
  if (s.i >= s.j) return bad("needs I < J");
  return s;
}

std::string_view OpName(Op op) { return kOpNames[static_cast<int>(op)]; }

Result<Op> ParseOp(std::string_view name) {
  for (int k = 0; k < kOps; ++k) {
    if (kOpNames[k] == name) return static_cast<Op>(k);
  }
  return Status::InvalidArgument(
      fmt::format("unknown op '{}' (known: eq, ne, lt, gt, mult)", QuoteInput(name)));
}

std::string RuleKey(const Rule& r) {
  return fmt::format("{} {} {}", SubjectName(r.subject), OpName(r.op), r.value);
}

std::string ComposeRuleText(std::string_view subject_phrase, Op op, int64_t value) {
  char number[24];
  const auto end = std::to_chars(number, number + sizeof number, value).ptr;
  const std::string_view verb = OpVerb(op);
  std::string text;
  text.reserve(subject_phrase.size() + verb.size() + static_cast<size_t>(end - number) + 3);
  text.append(subject_phrase);
  text += ' ';
  text.append(verb);
  text += ' ';
  text.append(number, end);
  text += '.';
  return text;
}

std::string RuleText(const Rule& r, int digits) {
  return ComposeRuleText(SubjectPhrase(r.subject, digits), r.op, r.value);
}

}  // namespace foundry::puzzles::secret_number
