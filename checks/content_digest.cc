#include "checks/content_digest.h"

#include <string>

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t on the stack
#include <xxhash.h>

namespace foundry::checks {

uint64_t ContentDigest(std::string_view puzzle_json, std::string_view solution_json) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, puzzle_json.data(), puzzle_json.size());
  XXH3_64bits_update(&state, "", 1);
  XXH3_64bits_update(&state, solution_json.data(), solution_json.size());
  return XXH3_64bits_digest(&state);
}

void ClaimDigest::Add(uint64_t index, std::string_view id, uint64_t content_digest) {
  std::string buf(16 + id.size(), '\0');
  for (int i = 0; i < 8; ++i) {
    buf[i] = static_cast<char>(index >> (8 * i));
    buf[8 + i] = static_cast<char>(content_digest >> (8 * i));
  }
  buf.replace(16, id.size(), id);
  h_ = XXH3_64bits_withSeed(buf.data(), buf.size(), h_);
}

void ClaimDigest::Add(const foundry::v1::GeneratedPuzzle& claim) {
  Add(claim.index(), claim.id(), ContentDigest(claim.puzzle_json(), claim.solution_json()));
}

void ClaimDigest::Add(const foundry::v1::Regenerated& regenerated) {
  if (regenerated.accepted()) Add(regenerated.index(), regenerated.id(), regenerated.digest());
}

}  // namespace foundry::checks
