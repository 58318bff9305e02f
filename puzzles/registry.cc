#include "puzzles/registry.h"

#include <fmt/format.h>

#include "common/quote.h"
#include "puzzles/alignment/alignment.h"
#include "puzzles/balance/balance.h"
#include "puzzles/bulls_cows/bulls_cows.h"
#include "puzzles/decodoku/decodoku.h"
#include "puzzles/nonogram/nonogram.h"
#include "puzzles/secret_number/secret_number.h"
#include "puzzles/sudoku/sudoku.h"
#include "puzzles/zebra/zebra.h"

namespace foundry::puzzles {

std::span<const Family* const> AllFamilies() {
  // One line per family (and its #include above, which also links it: see CMakeLists.txt).
  // clang-format off
  static const Family* const kFamilies[] = {
      &secret_number::TheFamily(),
      &alignment::TheFamily(),
      &decodoku::TheFamily(),
      &zebra::TheFamily(),
      &sudoku::TheFamily(),
      &bulls_cows::TheFamily(),
      &balance::TheFamily(),
      &nonogram::TheFamily(),
  };
  // clang-format on
  return kFamilies;
}

Result<const Family*> FindFamily(std::string_view name) {
  std::string known;
  for (const Family* f : AllFamilies()) {
    if (f->name() == name) return f;
    known += known.empty() ? "" : ", ";
    known += f->name();
  }
  return Status::NotFound(fmt::format("unknown family '{}' (known: {})", QuoteInput(name), known));
}

}  // namespace foundry::puzzles
