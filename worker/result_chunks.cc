#include "worker/result_chunks.h"

namespace foundry::worker {

std::vector<foundry::v1::ResultChunk> ChunkResults(const std::string& lease_id, JobOutput output,
                                                   size_t max_per_chunk) {
  std::vector<foundry::v1::ResultChunk> chunks;
  auto& puzzles = output.puzzles;
  size_t i = 0;
  do {
    foundry::v1::ResultChunk& chunk = chunks.emplace_back();
    chunk.set_lease_id(lease_id);
    const size_t end = std::min(puzzles.size(), i + max_per_chunk);
    chunk.mutable_puzzles()->Reserve(static_cast<int>(end - i));
    for (; i < end; ++i) *chunk.add_puzzles() = std::move(puzzles[i]);
  } while (i < puzzles.size());
  *chunks.back().mutable_stats() = std::move(output.stats);
  chunks.back().set_last(true);
  return chunks;
}

std::vector<foundry::v1::ResultChunk> ChunkVerifyResults(const std::string& lease_id,
                                                         VerifyOutput output,
                                                         size_t max_per_chunk) {
  std::vector<foundry::v1::ResultChunk> chunks(1);
  chunks.back().set_lease_id(lease_id);
  size_t in_chunk = 0;
  auto room = [&]() -> foundry::v1::ResultChunk& {
    if (in_chunk == max_per_chunk) {
      chunks.emplace_back().set_lease_id(lease_id);
      in_chunk = 0;
    }
    ++in_chunk;
    return chunks.back();
  };
  for (auto& v : output.verdicts) *room().add_verdicts() = std::move(v);
  for (auto& r : output.regenerated) *room().add_regenerated() = std::move(r);
  *chunks.back().mutable_stats() = std::move(output.stats);
  chunks.back().set_last(true);
  return chunks;
}

}  // namespace foundry::worker
