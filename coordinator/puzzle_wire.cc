#include "coordinator/puzzle_wire.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "puzzles/family.h"
#include "storage/observed_difficulty.h"

namespace foundry::coordinator {

namespace {

using google::protobuf::internal::WireFormatLite;

// Field numbers of foundry.v1.Puzzle that PresentRecord handles.
constexpr int kDifficultyField = foundry::v1::Puzzle::kDifficultyFieldNumber;
constexpr int kSolutionField = foundry::v1::Puzzle::kSolutionJsonFieldNumber;
constexpr int kPlaysField = foundry::v1::Puzzle::kPlaysFieldNumber;
constexpr int kObservedField = foundry::v1::Puzzle::kObservedFieldNumber;

}  // namespace

void SetObservedLevel(foundry::v1::ObservedDifficulty* observed) {
  observed->set_level(
      std::string(puzzles::LevelForScore(observed->score(), puzzles::kQuartileFloors)));
}

Result<std::string> PresentRecord(std::string_view id, std::string_view record,
                                  const storage::PlayCounts& plays, bool include_solution) {
  const auto unreadable = [&] {
    return Status::DataLoss("puzzle " + std::string(id) + " has an unreadable record");
  };
  std::string out;
  out.reserve(record.size() + 64);
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(record.data()),
                                            static_cast<int>(record.size()));
  double score = 0;
  // Walk the fields, copying each one's bytes (tag included) unless it is
  // one this function drops or recomputes. Difficulty is parsed on the way:
  // the observed figures start from its score.
  while (true) {
    const int start = in.CurrentPosition();
    const uint32_t tag = in.ReadTag();
    if (tag == 0) break;
    const int field = WireFormatLite::GetTagFieldNumber(tag);
    if (field == kDifficultyField &&
        WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t size = 0;
      if (!in.ReadVarint32(&size)) return unreadable();
      const auto at = static_cast<size_t>(in.CurrentPosition());
      foundry::v1::Difficulty difficulty;
      if (size > record.size() - at ||
          !difficulty.ParseFromArray(record.data() + at, static_cast<int>(size)) ||
          !in.Skip(size)) {
        return unreadable();
      }
      score = difficulty.score();
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      return unreadable();
    }
    const bool dropped = (field == kSolutionField && !include_solution) || field == kPlaysField ||
                         field == kObservedField;
    if (!dropped) out.append(record.substr(start, in.CurrentPosition() - start));
  }
  if (!in.ConsumedEntireMessage()) return unreadable();
  // The computed fields, serialised by protobuf itself: a Puzzle holding only
  // plays and observed is exactly their tagged bytes, which a parser merges
  // into the fields copied above.
  foundry::v1::Puzzle tail;
  storage::SetPlayFields(score, plays, tail);
  SetObservedLevel(tail.mutable_observed());
  if (!tail.AppendToString(&out)) return unreadable();
  return out;
}

}  // namespace foundry::coordinator
