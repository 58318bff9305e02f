// libFuzzer target: every family through the generic Family interface. The
// first byte picks a family from the registry; the rest is split at NUL
// bytes into the puzzle JSON, the solution JSON and a typed answer. Verify
// must never crash, whatever the JSON; a puzzle that verifies goes through
// every entry point that requires a verified puzzle (id, text, SVG, prompt,
// answers), and the contracts the interface states are checked: the id is
// well formed, canonical bytes survive a JSON round trip, the SVG is one
// document, the prompt is one line, and the formatted solution is a right
// answer.
#include <cstdint>
#include <string>
#include <string_view>

#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace {

using nlohmann::json;

// The next NUL-separated part of `rest` (all of it when there is no NUL,
// leaving `rest` null: no further part, as opposed to an empty one).
std::string_view NextPart(std::string_view& rest) {
  const size_t nul = rest.find('\0');
  const std::string_view part = rest.substr(0, nul);
  rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  return part;
}

bool IsSvgDocument(const std::string& svg) {
  return svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0 &&
         svg.find("</svg>") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto families = foundry::puzzles::AllFamilies();
  const foundry::puzzles::Family& family = *families[data[0] % families.size()];
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string_view puzzle_text = NextPart(rest);
  const std::string_view solution_text = NextPart(rest);
  const bool has_answer = rest.data() != nullptr;  // a third part, even empty
  const std::string_view answer = NextPart(rest);

  // Any JSON value at all (numbers, arrays, deep nesting) must be refused
  // cleanly, not only malformed puzzle objects.
  const json puzzle = json::parse(puzzle_text, nullptr, false);
  const json solution = json::parse(solution_text, nullptr, false);
  if (puzzle.is_discarded() || solution.is_discarded()) return 0;
  if (!family.Verify(puzzle, solution).ok()) return 0;

  const std::string canonical = family.CanonicalBytes(puzzle);
  if (!foundry::puzzles::LooksLikePuzzleId(foundry::puzzles::PuzzleId(family, canonical))) {
    __builtin_trap();
  }
  // The id hashes these bytes, so an export and re-import must agree.
  if (family.CanonicalBytes(json::parse(puzzle.dump())) != canonical) __builtin_trap();
  (void)family.RenderText(puzzle);
  if (!IsSvgDocument(family.RenderSvg(puzzle, nullptr))) __builtin_trap();
  if (!IsSvgDocument(family.RenderSvg(puzzle, &solution))) __builtin_trap();
  if (family.AnswerPrompt(puzzle).find('\n') != std::string::npos) __builtin_trap();

  const std::string formatted = family.FormatAnswer(puzzle, solution);
  auto right = family.CheckAnswer(puzzle, solution, formatted);
  if (!right.ok() || !*right) __builtin_trap();
  if (has_answer) (void)family.CheckAnswer(puzzle, solution, answer);
  return 0;
}
