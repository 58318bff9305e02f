// The registry of puzzle families: the one place that lists them all.
//
// Adding a family means adding its folder under puzzles/ and one line in
// registry.cc. Thread safety: the registry is built once, before main's first
// use, and is read-only afterwards.
#pragma once

#include <span>
#include <string_view>

#include "common/status.h"
#include "puzzles/family.h"

namespace foundry::puzzles {

// Every registered family, in a stable order.
std::span<const Family* const> AllFamilies();

// The family called `name`, or NotFound naming the known families.
// The pointer stays valid for the life of the program.
Result<const Family*> FindFamily(std::string_view name);

}  // namespace foundry::puzzles
