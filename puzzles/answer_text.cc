#include "puzzles/answer_text.h"

#include <algorithm>

#include "common/utf8.h"

namespace foundry::puzzles {

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& ch : out) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

std::string FoldName(std::string_view text) {
  std::string out;
  bool space = false;
  for (char ch : Trim(text)) {
    if (IsSpace(ch)) {
      space = true;
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += ch;
  }
  return AsciiLower(out);
}

std::string WithoutSpaces(std::string_view text) {
  std::string out;
  for (char ch : text) {
    if (!IsSpace(ch)) out += ch;
  }
  return out;
}

std::vector<std::string> SplitTrimmed(std::string_view text, std::string_view separators) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || separators.find(text[i]) != std::string_view::npos) {
      const std::string_view piece = Trim(text.substr(start, i - start));
      if (!piece.empty()) out.emplace_back(piece);
      start = i + 1;
    }
  }
  return out;
}

std::string QuoteAnswer(std::string_view text) {
  // Appended, not "'" + std::string(...) + "'": g++ 12 at -O3 reports a
  // false -Wrestrict inside that operator+ (GCC bug 105329), which broke the
  // Release build.
  constexpr size_t kMax = 40;
  std::string out;
  out.reserve(std::min(text.size(), kMax) + 5);
  out.push_back('\'');
  out.append(text.substr(0, Utf8Cut(text, kMax)));
  out.append(text.size() <= kMax ? "'" : "...'");
  return out;
}

std::string CharAt(std::string_view text, size_t i) {
  return std::string(text.substr(i, std::max<size_t>(1, Utf8SequenceLength(text, i))));
}

size_t CharCount(std::string_view text) {
  size_t n = 0;
  for (size_t i = 0; i < text.size(); ++n) i += std::max<size_t>(1, Utf8SequenceLength(text, i));
  return n;
}

void TextScanner::Skip(std::string_view also) {
  while (!AtEnd() && (IsSpace(text_[pos_]) || also.find(text_[pos_]) != std::string_view::npos)) {
    ++pos_;
  }
}

bool TextScanner::Accept(char ch) {
  if (AtEnd() || text_[pos_] != ch) return false;
  ++pos_;
  return true;
}

std::optional<int64_t> TextScanner::ReadNumber() {
  constexpr int64_t kCap = 1'000'000'000'000;
  if (AtEnd() || !IsDigit(text_[pos_])) return std::nullopt;
  int64_t value = 0;
  while (!AtEnd() && IsDigit(text_[pos_])) {
    if (value <= kCap) value = value * 10 + (text_[pos_] - '0');
    ++pos_;
  }
  return value > kCap ? kCap + 1 : value;
}

std::string TextScanner::ReadWord() {
  std::string word;
  while (!AtEnd() && IsLetter(text_[pos_])) {
    const char ch = text_[pos_++];
    word += ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
  }
  return word;
}

}  // namespace foundry::puzzles
