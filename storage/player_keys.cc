#include "storage/player_keys.h"

#include <bit>
#include <cstring>

#include "storage/keys.h"

namespace foundry::storage::player_keys {
namespace {

void PutU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t GetU64(std::string_view v, size_t at) {
  uint64_t out = 0;
  for (int i = 7; i >= 0; --i) out = (out << 8) | static_cast<unsigned char>(v[at + i]);
  return out;
}
void PutF64(std::string& out, double d) { PutU64(out, std::bit_cast<uint64_t>(d)); }
double GetF64(std::string_view v, size_t at) { return std::bit_cast<double>(GetU64(v, at)); }

std::string Join(std::string_view prefix, std::string_view a, std::string_view b) {
  std::string key(prefix);
  key.append(a);
  key.push_back('\0');
  key.append(b);
  return key;
}

constexpr std::string_view kPlayer{"player\0", 7};
constexpr std::string_view kPuzzleRating{"prating\0", 8};
constexpr std::string_view kByRating{"by_rating\0", 10};
constexpr std::string_view kServed{"served\0", 7};
constexpr std::string_view kAttempt{"attempt\0", 8};
constexpr std::string_view kPlayId{"play_id\0", 8};
constexpr std::string_view kGradeMap{"grade_map\0", 10};
constexpr std::string_view kDaily{"daily\0", 6};
constexpr std::string_view kPlay{"play\0", 5};
constexpr std::string_view kPlaySeq{"play_seq"};
constexpr std::string_view kBest{"best\0", 5};

}  // namespace

std::string PlayerKey(std::string_view family, std::string_view player_id) {
  return Join(kPlayer, family, player_id);
}
std::string PuzzleRatingKey(std::string_view puzzle_id) {
  return std::string(kPuzzleRating).append(puzzle_id);
}
std::string ByRatingPrefix(std::string_view family) { return Join(kByRating, family, ""); }
std::string ByRatingKey(std::string_view family, double rating, std::string_view puzzle_id) {
  return ByRatingPrefix(family) + keys::ScoreKey(rating) + std::string(puzzle_id);
}
std::optional<std::pair<double, std::string_view>> ParseByRatingKey(std::string_view prefix,
                                                                    std::string_view key) {
  if (key.size() <= prefix.size() + 8 || key.substr(0, prefix.size()) != prefix)
    return std::nullopt;
  return std::make_pair(keys::ParseScoreKey(key.substr(prefix.size(), 8)),
                        key.substr(prefix.size() + 8));
}
std::string ServedKey(std::string_view player_id, std::string_view puzzle_id) {
  return Join(kServed, player_id, puzzle_id);
}
std::string AttemptKey(std::string_view player_id, std::string_view puzzle_id) {
  return Join(kAttempt, player_id, puzzle_id);
}
std::string PlayIdKey(std::string_view play_id) { return std::string(kPlayId).append(play_id); }

std::string GradeMapKey(std::string_view family) { return std::string(kGradeMap).append(family); }
std::string DailyKey(std::string_view family, std::string_view date) {
  return Join(kDaily, family, date);
}
std::string PlayKey(std::string_view player_id, uint64_t seq) {
  std::string key = PlayPrefix(player_id);
  for (int i = 7; i >= 0; --i) key.push_back(static_cast<char>((seq >> (8 * i)) & 0xff));
  return key;
}
std::string PlayPrefix(std::string_view player_id) { return Join(kPlay, player_id, ""); }
std::string PlayAllPrefix() { return std::string(kPlay); }
std::string PlaySeqKey() { return std::string(kPlaySeq); }
std::string BestKey(std::string_view puzzle_id) { return std::string(kBest).append(puzzle_id); }
std::string EncodeSeq(uint64_t seq) {
  std::string out;
  PutU64(out, seq);
  return out;
}
std::optional<uint64_t> DecodeSeq(std::string_view v) {
  if (v.size() != 8) return std::nullopt;
  return GetU64(v, 0);
}
std::string ByRatingAllPrefix() { return std::string(kByRating); }
std::optional<ByRatingParts> ParseAnyByRatingKey(std::string_view key) {
  if (key.substr(0, kByRating.size()) != kByRating) return std::nullopt;
  key.remove_prefix(kByRating.size());
  const size_t nul = key.find('\0');
  if (nul == std::string_view::npos || key.size() <= nul + 1 + 8) return std::nullopt;
  return ByRatingParts{key.substr(0, nul), keys::ParseScoreKey(key.substr(nul + 1, 8)),
                       key.substr(nul + 1 + 8)};
}

std::string EncodeGradeMapping(const FittedGradeMapping& m) {
  std::string out;
  PutF64(out, m.mapping.center);
  PutF64(out, m.mapping.per_score);
  PutU64(out, m.puzzles);
  PutU64(out, static_cast<uint64_t>(m.fitted_unix_ms));
  return out;
}
std::optional<FittedGradeMapping> DecodeGradeMapping(std::string_view v) {
  if (v.size() != 32) return std::nullopt;
  return FittedGradeMapping{
      {GetF64(v, 0), GetF64(v, 8)}, GetU64(v, 16), static_cast<int64_t>(GetU64(v, 24))};
}

namespace {

// Players' and puzzles' values share one layout: a Glicko-2 triple, then
// two counters (plays and solves; judged solved and failed).
std::string EncodeRatingAndCounts(const RatingState& r, uint64_t a, uint64_t b) {
  std::string out;
  PutF64(out, r.rating);
  PutF64(out, r.deviation);
  PutF64(out, r.volatility);
  PutU64(out, a);
  PutU64(out, b);
  return out;
}
template <typename Figures>
std::optional<Figures> DecodeRatingAndCounts(std::string_view v) {
  if (v.size() != 40) return std::nullopt;
  return Figures{{GetF64(v, 0), GetF64(v, 8), GetF64(v, 16)}, GetU64(v, 24), GetU64(v, 32)};
}

}  // namespace

std::string EncodePlayer(const PlayerFigures& p) {
  return EncodeRatingAndCounts(p.rating, p.plays, p.solves);
}
std::optional<PlayerFigures> DecodePlayer(std::string_view v) {
  return DecodeRatingAndCounts<PlayerFigures>(v);
}
std::string EncodePuzzleRating(const PuzzleRating& r) {
  return EncodeRatingAndCounts(r.rating, r.judged_solved, r.judged_failed);
}
std::optional<PuzzleRating> DecodePuzzleRating(std::string_view v) {
  return DecodeRatingAndCounts<PuzzleRating>(v);
}

std::string EncodePlayIdRecord(std::string_view fingerprint, std::string_view response) {
  std::string out;
  const auto n = static_cast<uint32_t>(fingerprint.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  out.append(fingerprint);
  out.append(response);
  return out;
}
std::optional<std::pair<std::string_view, std::string_view>> DecodePlayIdRecord(
    std::string_view v) {
  if (v.size() < 4) return std::nullopt;
  uint32_t n = 0;
  for (int i = 3; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(v[i]);
  if (v.size() - 4 < n) return std::nullopt;
  return std::make_pair(v.substr(4, n), v.substr(4 + n));
}

}  // namespace foundry::storage::player_keys
