// foundry solve FAMILY: the inverse problem at the terminal, for a family
// that has a computer guesser (puzzles/guesser.h; bulls-cows, seed 003).
// The computer guesses; the person types the answer to each guess
// (bulls-cows: "1 2", "1,2" or "1b2c"); a clear message when the answers
// contradict each other (and which earlier answer to check), after which
// the person can retype the last answer. Exit 0 when the secret is found, 1
// on end of input or a family without a guesser.
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"
#include "puzzles/registry.h"

namespace foundry::cli {
namespace {

struct SolveFlags {
  std::string family;
  int length = 4;
  bool leading_zero = false;
  std::string strategy;  // empty: the family's default
};

int Play(puzzles::Guesser& guesser) {
  fmt::print("{}", guesser.Intro());
  std::string line;
  while (!guesser.solved()) {
    const std::string guess = guesser.Guess();
    fmt::print("Guess {}: {}\n{}", guesser.guesses(), guess, guesser.AnswerPrompt());
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) {
      fmt::print("\n");
      return Fail("input ended before the secret was found");
    }
    const Status s = guesser.Answer(line);
    if (s.code() == Status::Code::kInvalidArgument) {
      fmt::print("{}.\n", s.message());
    } else if (!s.ok()) {
      fmt::print("Hmm: {}.\nRetype the answer to this guess.\n", s.message());
    }
  }
  fmt::print("Got it: {} in {} guess{}.\n", guesser.last_guess(), guesser.guesses(),
             guesser.guesses() == 1 ? "" : "es");
  return 0;
}

int Solve(const SolveFlags& flags) {
  auto family = puzzles::FindFamily(flags.family);
  if (!family.ok()) return Fail(family.status().message());
  // The flags the family declares as parameters; a bad value of one of
  // them is an error, not a silent default.
  std::map<std::string, std::string> raw;
  for (const auto& spec : (*family)->param_specs()) {
    if (spec.key == "length") raw[spec.key] = std::to_string(flags.length);
    if (spec.key == "leading_zero") raw[spec.key] = flags.leading_zero ? "true" : "false";
  }
  auto params = (*family)->MakeParams(raw);
  if (!params.ok()) return Fail(params.status().message());
  auto guesser = (*family)->NewGuesser(*params, flags.strategy);
  if (!guesser.ok()) return Fail(guesser.status().message());
  return Play(**guesser);
}

}  // namespace

void AddSolveCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<SolveFlags>();
  CLI::App* cmd = app.add_subcommand(
      "solve", "Play the inverse problem: the computer guesses your secret (bulls-cows)");
  cmd->add_option("family", flags->family, "A family with a computer guesser (bulls-cows)")
      ->required();
  cmd->add_option("--length", flags->length, "Digits in your number")->check(CLI::Range(3, 6));
  cmd->add_flag("--leading-zero", flags->leading_zero, "Your number may start with 0");
  cmd->add_option("--strategy", flags->strategy,
                  "optimal (the default: a searched decision tree where one is shipped, else "
                  "ours), ours (entropy) or seed (first consistent)")
      ->check(CLI::IsMember({"optimal", "ours", "seed"}));
  cmd->callback([flags, &exit_code] { exit_code = Solve(*flags); });
}

}  // namespace foundry::cli
