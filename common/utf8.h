// Whether text is well-formed UTF-8. Protocol Buffers refuse to send or read
// a string field that is not (gRPC then fails the call with an empty
// message), so input headed for one is checked first and refused by name.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace foundry {

// The length of the well-formed UTF-8 sequence that starts at byte `i` of
// `text` (1 for ASCII, 2 to 4 otherwise), or 0 when none does (a stray
// continuation byte, an overlong form, a surrogate, past U+10FFFF, or a
// sequence cut short), after the Unicode standard's table of well-formed
// byte sequences. REQUIRES: i < text.size().
inline size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char c = s[i];
  if (c < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (text.size() - i < len || s[i + 1] < lo || s[i + 1] > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if ((s[i + k] & 0xC0) != 0x80) return 0;
  }
  return len;
}

// The largest length <= max at which `text` can be cut without splitting a
// UTF-8 sequence (it backs up over continuation bytes, 10xxxxxx).
inline size_t Utf8Cut(std::string_view text, size_t max) {
  size_t cut = max < text.size() ? max : text.size();
  while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  return cut;
}

// True when `text` is well-formed UTF-8.
inline bool IsValidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

// `text` with every byte that begins no well-formed sequence replaced by
// U+FFFD, the replacement character: for messages that quote a caller's
// bytes, which a client must be able to decode.
inline std::string ValidUtf8(std::string_view text) {
  if (IsValidUtf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size();) {
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace foundry
