// foundry solve bulls-cows: the inverse problem of seed 003 at the terminal.
// The computer guesses; the person types the bulls and cows of each guess
// ("1 2", "1,2" or "1b2c"); a clear message when the answers contradict
// each other (and which earlier answer to check), after which the person
// can retype the last answer. Exit 0 when the number is found, 1 on end of
// input or an unknown family.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"
#include "puzzles/bulls_cows/codes.h"
#include "puzzles/bulls_cows/session.h"

namespace foundry::cli {
namespace {

struct SolveFlags {
  std::string family;
  int length = 4;
  bool leading_zero = false;
  std::string strategy = "ours";
};

// "1 2", "1,2", "1b 2c", "1b2c": two small numbers in that order.
std::optional<std::pair<int, int>> ParseAnswer(const std::string& line) {
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

int Play(const SolveFlags& flags) {
  using puzzles::bulls_cows::Session;
  using puzzles::bulls_cows::StrategyKind;
  Session session(flags.length, flags.leading_zero,
                  flags.strategy == "seed" ? StrategyKind::kSeed : StrategyKind::kOurs);
  fmt::print(
      "Think of a {}-digit number with {} different digits{}.\n"
      "After each guess type the bulls (right digit, right place) and the cows (right digit, "
      "wrong place), e.g. \"1 2\".\n",
      flags.length, flags.length, flags.leading_zero ? " (it may start with 0)" : " (no leading 0)");
  std::string line, guess;
  while (!session.solved()) {
    guess = session.Guess();
    fmt::print("Guess {}: {}   ({} possible)\nbulls cows> ", session.guesses(), guess,
               session.candidates());
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) {
      fmt::print("\n");
      return Fail("input ended before the number was found");
    }
    const auto answer = ParseAnswer(line);
    if (!answer) {
      fmt::print("Please type two numbers: bulls then cows, e.g. \"1 2\".\n");
      continue;
    }
    const Status s = session.Answer(answer->first, answer->second);
    if (!s.ok()) {
      fmt::print("{}{}.\nRetype the answer to this guess.\n",
                 s.code() == Status::Code::kFailedPrecondition ? "Hmm: " : "", s.message());
    }
  }
  fmt::print("Got it: {} in {} guess{}.\n", guess, session.guesses(),
             session.guesses() == 1 ? "" : "es");
  return 0;
}

}  // namespace

void AddSolveCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<SolveFlags>();
  CLI::App* cmd = app.add_subcommand(
      "solve", "Play the inverse problem: the computer guesses your secret (bulls-cows)");
  cmd->add_option("family", flags->family, "The family (bulls-cows)")->required();
  cmd->add_option("--length", flags->length, "Digits in your number")->check(CLI::Range(3, 6));
  cmd->add_flag("--leading-zero", flags->leading_zero, "Your number may start with 0");
  cmd->add_option("--strategy", flags->strategy, "ours (entropy) or seed (first consistent)")
      ->check(CLI::IsMember({"ours", "seed"}));
  cmd->callback([flags, &exit_code] {
    if (flags->family != "bulls-cows") {
      exit_code = Fail(fmt::format("solve supports the family bulls-cows, not '{}'", flags->family));
      return;
    }
    exit_code = Play(*flags);
  });
}

}  // namespace foundry::cli
