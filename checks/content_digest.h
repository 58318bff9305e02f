// Digests that let the coordinator compare what two workers produced without
// parsing it: a candidate's content, and a whole job's claims.
#pragma once

#include <cstdint>
#include <string_view>

#include "foundry/v1/worker.pb.h"

namespace foundry::checks {

// XXH3-64 of a candidate's puzzle and solution JSON, byte for byte (a zero
// byte between them). Equal digests mean the same bytes, short of a 2^-64
// accident.
uint64_t ContentDigest(std::string_view puzzle_json, std::string_view solution_json);

// A job's claims in one number: XXH3-64 over, for each accepted candidate in
// index order, its index, id and content digest. Re-generating the job's
// whole range and digesting the accepted candidates the same way gives the
// same number exactly when every claim was true.
class ClaimDigest {
 public:
  void Add(uint64_t index, std::string_view id, uint64_t content_digest);
  void Add(const foundry::v1::GeneratedPuzzle& claim);
  void Add(const foundry::v1::Regenerated& regenerated);  // rejected ones add nothing
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0x9e3779b97f4a7c15ULL;
};

}  // namespace foundry::checks
