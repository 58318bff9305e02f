// Splits a job's output into the bounded chunks of one SubmitResults stream.
#pragma once

#include <string>
#include <vector>

#include "foundry/v1/worker.pb.h"
#include "worker/job_executor.h"

namespace foundry::worker {

// At most this many puzzles per chunk keeps every message far below gRPC's
// 4 MB default limit.
inline constexpr size_t kMaxPuzzlesPerChunk = 1000;

// The chunks for `output`: puzzles in order, `max_per_chunk` at most per chunk,
// the stats and `last` on the final chunk. Always at least one chunk.
std::vector<foundry::v1::ResultChunk> ChunkResults(const std::string& lease_id, JobOutput output,
                                                   size_t max_per_chunk = kMaxPuzzlesPerChunk);

// The same for a verification job: verdicts, then re-generated candidates,
// `max_per_chunk` items at most per chunk.
std::vector<foundry::v1::ResultChunk> ChunkVerifyResults(
    const std::string& lease_id, VerifyOutput output, size_t max_per_chunk = kMaxPuzzlesPerChunk);

}  // namespace foundry::worker
