// Shared by the families' answer tests.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "common/status.h"

namespace foundry::puzzles::testing {

// The message of `r`, which must be an InvalidArgument (a failure is added
// otherwise, naming `text`, the answer that was checked).
inline std::string InvalidAnswerMessage(const Result<bool>& r, const std::string& text = "") {
  EXPECT_FALSE(r.ok()) << "answer '" << text << "' should not parse";
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument) << text;
  return r.status().message();
}

}  // namespace foundry::puzzles::testing
