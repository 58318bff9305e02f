#include "puzzles/registry.h"

#include <fmt/format.h>

#include "puzzles/secret_number/secret_number.h"

namespace foundry::puzzles {

std::span<const Family* const> AllFamilies() {
  // One line per family.
  static const Family* const kFamilies[] = {
      &secret_number::TheFamily(),
  };
  return kFamilies;
}

Result<const Family*> FindFamily(std::string_view name) {
  std::string known;
  for (const Family* f : AllFamilies()) {
    if (f->name() == name) return f;
    known += known.empty() ? "" : ", ";
    known += f->name();
  }
  return Status::NotFound(fmt::format("unknown family '{}' (known: {})", name, known));
}

}  // namespace foundry::puzzles
