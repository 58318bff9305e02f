// BullsCowsEffort: the candidates a player who filters in the puzzle's own
// order still holds after each clue, summed. Start with every secret the
// puzzle allows (`length` distinct digits, no leading 0 unless
// leading_zero); take the clues as listed, and after clue t count the codes
// that score every clue 1..t exactly (bulls and cows); the figure is the sum
// of those counts over all clues (the last one, 1, included). It is the work
// of a plain solver that crosses out codes clue by clue without choosing an
// order, where the grade (difficulty.h) takes the clue that leaves the
// fewest first and weighs the chain on a log scale.
//
// Independent of the grade, of the family's code tables and of the
// verifier: codes and scores are computed here digit by digit; only the
// JSON reader (codec.h) is shared. An error when the clues do not leave
// exactly the solution.
#include <string>
#include <vector>

#include "bench/effort/effort.h"
#include "puzzles/bulls_cows/codec.h"

namespace foundry::bench {
namespace {

// Bulls and cows of `guess` against `secret` (same length, distinct digits).
void Score(const std::string& guess, const std::string& secret, int& bulls, int& cows) {
  bulls = cows = 0;
  for (size_t i = 0; i < guess.size(); ++i) {
    if (guess[i] == secret[i]) {
      ++bulls;
    } else if (secret.find(guess[i]) != std::string::npos) {
      ++cows;
    }
  }
}

// Every code of `length` distinct digits, ascending.
void AllCodes(int length, bool leading_zero, std::string& prefix, std::vector<std::string>& out) {
  if (static_cast<int>(prefix.size()) == length) {
    out.push_back(prefix);
    return;
  }
  for (char c = '0'; c <= '9'; ++c) {
    if (prefix.empty() && c == '0' && !leading_zero) continue;
    if (prefix.find(c) != std::string::npos) continue;
    prefix.push_back(c);
    AllCodes(length, leading_zero, prefix, out);
    prefix.pop_back();
  }
}

Result<double> BullsCowsEffort(const nlohmann::json& puzzle, const nlohmann::json& solution) {
  auto p = puzzles::bulls_cows::ParsePuzzle(puzzle);
  if (!p.ok()) return p.status();
  auto secret = puzzles::bulls_cows::ParseSolution(solution, *p);
  if (!secret.ok()) return secret.status();
  std::vector<std::string> alive;
  std::string prefix;
  AllCodes(p->length, p->leading_zero, prefix, alive);
  double sum = 0;
  for (const auto& clue : p->clues) {
    std::vector<std::string> kept;
    for (const std::string& code : alive) {
      int bulls = 0, cows = 0;
      Score(clue.guess, code, bulls, cows);
      if (bulls == clue.bulls && cows == clue.cows) kept.push_back(code);
    }
    alive.swap(kept);
    sum += static_cast<double>(alive.size());
  }
  if (alive.size() != 1 || alive[0] != *secret) {
    return Status::FailedPrecondition("the clues do not leave exactly the solution");
  }
  return sum;
}

const bool kRegistered =
    RegisterEffort({"bulls-cows", "candidates left, listed order, summed", &BullsCowsEffort});

}  // namespace
}  // namespace foundry::bench
