// Quoting a caller's input in an error message without echoing all of it: a
// 20,000-character value once came back as a 20,000-character error, past
// gRPC's metadata limit (the client saw RESOURCE_EXHAUSTED instead of the
// INVALID_ARGUMENT meant for it).
#pragma once

#include <string>
#include <string_view>

#include "common/utf8.h"

namespace foundry {

// `input` itself when it has at most `max` bytes; else its first `max`
// bytes (never splitting a UTF-8 sequence) and how long it was.
inline std::string QuoteInput(std::string_view input, size_t max = 64) {
  if (input.size() <= max) return std::string(input);
  return std::string(input.substr(0, Utf8Cut(input, max))) + "... (" +
         std::to_string(input.size()) + " bytes)";
}

}  // namespace foundry
