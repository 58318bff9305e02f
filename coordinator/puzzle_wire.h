// A stored puzzle record turned into the foundry.v1.Puzzle a reader gets,
// on the wire bytes: no parse of the record into a message and no
// re-serialisation of its ~1 KB of JSON strings (PuzzleStore.GetPuzzle).
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "foundry/v1/puzzle.pb.h"
#include "storage/play_counts_merge.h"

namespace foundry::coordinator {

// Sets observed->level from observed->score with the quartile table
// (docs/store.md, "Plays and the observed difficulty"). Levels are the
// families' business, so the store leaves this field empty.
void SetObservedLevel(foundry::v1::ObservedDifficulty* observed);

// The wire bytes of the foundry.v1.Puzzle a reader gets from a stored
// `record` (a Puzzle as committed) and its recorded `plays`: the record's
// fields copied as they are, without solution_json unless
// `include_solution`, then plays and observed (its level included) computed
// as Store::GetPuzzle and the service fill them. Parsed, the result equals
// that message. Any plays or observed fields in the record are dropped.
// DataLoss naming `id` when the record is not a readable Puzzle.
Result<std::string> PresentRecord(std::string_view id, std::string_view record,
                                  const storage::PlayCounts& plays, bool include_solution);

}  // namespace foundry::coordinator
