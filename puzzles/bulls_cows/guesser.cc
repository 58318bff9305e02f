#include "puzzles/bulls_cows/guesser.h"

#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/bulls_cows/session.h"

namespace foundry::puzzles::bulls_cows {
namespace {

// "1 2", "1,2", "1b 2c", "1b2c": two small numbers in that order.
std::optional<std::pair<int, int>> ParseBullsCows(std::string_view line) {
  int numbers[2];
  int found = 0;
  for (size_t i = 0; i < line.size();) {
    const char ch = line[i];
    if (ch >= '0' && ch <= '9') {
      if (found == 2) return std::nullopt;
      int v = 0;
      while (i < line.size() && line[i] >= '0' && line[i] <= '9' && v < 100) {
        v = v * 10 + (line[i++] - '0');
      }
      numbers[found++] = v;
    } else if (ch == ' ' || ch == ',' || ch == '\t' || ch == '\r' || ch == 'b' || ch == 'B' ||
               ch == 'c' || ch == 'C') {
      ++i;
    } else {
      return std::nullopt;
    }
  }
  if (found != 2) return std::nullopt;
  return std::pair{numbers[0], numbers[1]};
}

class SessionGuesser final : public Guesser {
 public:
  SessionGuesser(int length, bool leading_zero, StrategyKind kind)
      : session_(length, leading_zero, kind), leading_zero_(leading_zero) {}

  std::string Intro() const override {
    return fmt::format(
        "Think of a {}-digit number with {} different digits{}.\n"
        "After each guess type the bulls (right digit, right place) and the cows (right digit, "
        "wrong place), e.g. \"1 2\".\n",
        session_.length(), session_.length(),
        leading_zero_ ? " (it may start with 0)" : " (no leading 0)");
  }

  std::string Guess() override {
    last_ = session_.Guess();
    return fmt::format("{}   ({} possible)", last_, session_.candidates());
  }

  std::string AnswerPrompt() const override { return "bulls cows> "; }

  Status Answer(std::string_view text) override {
    const auto answer = ParseBullsCows(text);
    if (!answer) {
      return Status::InvalidArgument("Please type two numbers: bulls then cows, e.g. \"1 2\"");
    }
    return session_.Answer(answer->first, answer->second);
  }

  bool solved() const override { return session_.solved(); }
  int guesses() const override { return session_.guesses(); }
  std::string last_guess() const override { return last_; }

 private:
  Session session_;
  bool leading_zero_;
  std::string last_;
};

}  // namespace

Result<std::unique_ptr<Guesser>> NewGuesser(int length, bool leading_zero,
                                            std::string_view strategy) {
  StrategyKind kind;
  if (strategy.empty() || strategy == "optimal") {
    kind = StrategyKind::kOptimal;
  } else if (strategy == "ours") {
    kind = StrategyKind::kOurs;
  } else if (strategy == "seed") {
    kind = StrategyKind::kSeed;
  } else {
    return Status::InvalidArgument(fmt::format(
        "unknown strategy '{}' for bulls-cows (optimal, ours or seed)", QuoteInput(strategy)));
  }
  return std::unique_ptr<Guesser>(new SessionGuesser(length, leading_zero, kind));
}

}  // namespace foundry::puzzles::bulls_cows
