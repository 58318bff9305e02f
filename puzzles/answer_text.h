// Small tools for reading a player's typed answer (Family::CheckAnswer):
// case folding, whitespace trimming, and a scanner over numbers and words.
// Families use them so that every answer form is tolerant of spaces and case
// in the same way.
//
// Thread safety: pure functions; a TextScanner is a value over a view of text
// the caller keeps alive.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace foundry::puzzles {

// True for space, tab, newline, carriage return, form feed, vertical tab.
constexpr bool IsSpace(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}
constexpr bool IsDigit(char ch) { return ch >= '0' && ch <= '9'; }
constexpr bool IsLetter(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

// `text` with ASCII letters lowered (other bytes, UTF-8 included, unchanged).
std::string AsciiLower(std::string_view text);

// `text` without leading and trailing whitespace.
std::string_view Trim(std::string_view text);

// `text` trimmed, with every run of whitespace made one space, lowered:
// the form two names are compared in ("Orange  Juice" == "orange juice").
std::string FoldName(std::string_view text);

// `text` with every whitespace character removed.
std::string WithoutSpaces(std::string_view text);

// `text` split at every character of `separators` (pieces trimmed; empty
// pieces dropped).
std::vector<std::string> SplitTrimmed(std::string_view text, std::string_view separators);

// For error messages: the text in single quotes, cut to 40 bytes (never
// inside a UTF-8 character) with "..." when longer.
std::string QuoteAnswer(std::string_view text);

// For error messages: the character of `text` that starts at byte `i`,
// whole ("é", not its first byte), or that byte alone when it begins no
// well-formed UTF-8 sequence. REQUIRES: i < text.size().
std::string CharAt(std::string_view text, size_t i);

// The characters of `text` (UTF-8 sequences; a malformed byte counts as
// one), for messages that count what was typed.
size_t CharCount(std::string_view text);

// Reads numbers and words left to right.
class TextScanner {
 public:
  explicit TextScanner(std::string_view text) : text_(text) {}

  // Skips whitespace and any character of `also`.
  void Skip(std::string_view also = "");
  bool AtEnd() const { return pos_ >= text_.size(); }
  // The next character whole (CharAt), for a message; "" at the end.
  std::string PeekChar() const { return AtEnd() ? "" : CharAt(text_, pos_); }
  // Consumes the next character when it is `ch`.
  bool Accept(char ch);
  // A run of decimal digits as a number; nullopt (nothing consumed) when no
  // digit is next. Values beyond 10^12 read as 10^12 + 1, so that a range
  // check refuses them without overflow.
  std::optional<int64_t> ReadNumber();
  // A run of ASCII letters, lowered; empty when no letter is next.
  std::string ReadWord();
  // The unread rest of the text.
  std::string_view Rest() const { return text_.substr(pos_ < text_.size() ? pos_ : text_.size()); }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace foundry::puzzles
