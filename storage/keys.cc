#include "storage/keys.h"

#include <bit>
#include <charconv>
#include <cstring>

namespace foundry::storage::keys {

namespace {

constexpr char kSep = '\0';

void PutBigEndian(std::string& out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8)
    out.push_back(static_cast<char>((v >> shift) & 0xff));
}

uint64_t GetBigEndian(std::string_view in) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(in[i]);
  return v;
}

constexpr uint64_t kSignBit = uint64_t{1} << 63;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // upper case is not produced, so not accepted
}

}  // namespace

std::string EncodeSchemaVersion(int version) { return std::to_string(version); }

std::optional<int> DecodeSchemaVersion(std::string_view value) {
  if (value.empty() || value.size() > 9) return std::nullopt;
  if (value.size() > 1 && value[0] == '0') return std::nullopt;
  int version = 0;
  const char* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, version);
  if (ec != std::errc() || ptr != end || version < 0) return std::nullopt;
  return version;
}

bool IsValidKeyComponent(std::string_view component) {
  return component.find(kSep) == std::string_view::npos;
}

std::string FamilyPrefix(std::string_view family) {
  std::string prefix(family);
  prefix.push_back(kSep);
  return prefix;
}

std::string CampaignMemberKey(std::string_view campaign_id, uint64_t index) {
  std::string key = CampaignMemberPrefix(campaign_id);
  PutBigEndian(key, index);
  return key;
}

std::string ScoreKey(double score) {
  if (score == 0) score = 0;  // -0 and +0 are one score
  const uint64_t bits = std::bit_cast<uint64_t>(score);
  // Positive doubles order as their bits with the sign bit set; negative ones
  // as their bits inverted.
  std::string key;
  PutBigEndian(key, (bits & kSignBit) ? ~bits : (bits | kSignBit));
  return key;
}

double ParseScoreKey(std::string_view eight_bytes) {
  const uint64_t v = GetBigEndian(eight_bytes);
  return std::bit_cast<double>((v & kSignBit) ? (v & ~kSignBit) : ~v);
}

std::string ByScoreKeyPrefix(std::string_view family, double score) {
  std::string key = FamilyPrefix(family);
  key += ScoreKey(score);
  return key;
}

std::string ByScoreKey(std::string_view family, double score, std::string_view id) {
  std::string key = ByScoreKeyPrefix(family, score);
  key.append(id);
  return key;
}

std::optional<ByScoreParts> ParseByScoreKey(std::string_view key) {
  const size_t sep = key.find(kSep);
  if (sep == std::string_view::npos || sep == 0 || key.size() < sep + 1 + 8 + 1)
    return std::nullopt;
  return ByScoreParts{key.substr(0, sep), ParseScoreKey(key.substr(sep + 1, 8)),
                      key.substr(sep + 9)};
}

std::string EncodeCatalogValue(std::string_view level, int64_t created_unix_ms,
                               std::string_view campaign_id) {
  std::string value(level);
  value.push_back(kSep);
  value += TimeKey(created_unix_ms);
  value.append(campaign_id);
  return value;
}

std::optional<CatalogValue> DecodeCatalogValue(std::string_view value) {
  const size_t sep = value.find(kSep);
  if (sep == std::string_view::npos || value.size() < sep + 1 + 8) return std::nullopt;
  const uint64_t t = GetBigEndian(value.substr(sep + 1, 8));
  return CatalogValue{value.substr(0, sep), static_cast<int64_t>(t ^ kSignBit),
                      value.substr(sep + 9)};
}

std::string TimeKey(int64_t unix_ms) {
  std::string key;
  PutBigEndian(key, static_cast<uint64_t>(unix_ms) ^ kSignBit);
  return key;
}

std::string ByCreatedKey(int64_t created_unix_ms, std::string_view id) {
  std::string key = TimeKey(created_unix_ms);
  key.append(id);
  return key;
}

std::string DrawGroupPrefix(std::string_view family, std::string_view level) {
  std::string prefix(family);
  prefix.push_back(kSep);
  prefix.append(level);
  prefix.push_back(kSep);
  return prefix;
}

std::string DrawKey(std::string_view family, std::string_view level, uint64_t seq) {
  std::string key = DrawGroupPrefix(family, level);
  PutBigEndian(key, seq);
  return key;
}

std::string EncodeDrawValue(double score, int64_t created_unix_ms, std::string_view campaign_id,
                            std::string_view id) {
  std::string value = ScoreKey(score);
  value += TimeKey(created_unix_ms);
  value.append(campaign_id);
  value.push_back(kSep);
  value.append(id);
  return value;
}

std::optional<DrawValue> DecodeDrawValue(std::string_view value) {
  if (value.size() < 16 + 1 + 1) return std::nullopt;
  const std::string_view rest = value.substr(16);
  const size_t sep = rest.find(kSep);
  if (sep == std::string_view::npos || sep + 1 == rest.size()) return std::nullopt;
  return DrawValue{ParseScoreKey(value.substr(0, 8)),
                   static_cast<int64_t>(GetBigEndian(value.substr(8, 8)) ^ kSignBit),
                   rest.substr(0, sep), rest.substr(sep + 1)};
}

std::string DrawGroupKey(std::string_view family, std::string_view level) {
  std::string key(kDrawGroupsBegin);
  key += DrawGroupPrefix(family, level);
  key.pop_back();  // no separator after the level
  return key;
}

std::optional<DrawGroupName> ParseDrawGroupKey(std::string_view key) {
  if (!key.starts_with(kDrawGroupsBegin)) return std::nullopt;
  const std::string_view rest = key.substr(kDrawGroupsBegin.size());
  const size_t sep = rest.find(kSep);
  if (sep == std::string_view::npos || sep == 0) return std::nullopt;
  const std::string_view level = rest.substr(sep + 1);
  if (!IsValidKeyComponent(level)) return std::nullopt;
  return DrawGroupName{rest.substr(0, sep), level};
}

std::string EncodeDrawCounters(uint64_t next, uint64_t live) {
  std::string value;
  PutBigEndian(value, next);
  PutBigEndian(value, live);
  return value;
}

std::optional<std::pair<uint64_t, uint64_t>> DecodeDrawCounters(std::string_view value) {
  if (value.size() != 16) return std::nullopt;
  const uint64_t next = GetBigEndian(value.substr(0, 8));
  const uint64_t live = GetBigEndian(value.substr(8, 8));
  if (live > next) return std::nullopt;
  return std::make_pair(next, live);
}

std::string EncodeSeq(uint64_t seq) {
  std::string value;
  PutBigEndian(value, seq);
  return value;
}

std::optional<uint64_t> DecodeSeq(std::string_view value) {
  if (value.size() != 8) return std::nullopt;
  return GetBigEndian(value);
}

std::string CampaignMemberPrefix(std::string_view campaign_id) {
  std::string prefix(campaign_id);
  prefix.push_back(kSep);
  return prefix;
}

std::optional<uint64_t> ParseCampaignMemberIndex(std::string_view key) {
  if (key.size() < 9 || key[key.size() - 9] != kSep) return std::nullopt;
  if (!IsValidKeyComponent(key.substr(0, key.size() - 9))) return std::nullopt;
  uint64_t index = 0;
  for (size_t i = key.size() - 8; i < key.size(); ++i) {
    index = (index << 8) | static_cast<unsigned char>(key[i]);
  }
  return index;
}

std::string EncodePageToken(ScanIndex index, std::string_view key) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  token.reserve(2 * (key.size() + 1));
  auto put = [&token](unsigned char byte) {
    token.push_back(kHex[byte >> 4]);
    token.push_back(kHex[byte & 0xf]);
  };
  put(static_cast<unsigned char>(index));
  for (char c : key) put(static_cast<unsigned char>(c));
  return token;
}

std::optional<PageToken> DecodePageToken(std::string_view token) {
  // A tag byte and at least one key byte.
  if (token.size() < 4 || token.size() % 2 != 0) return std::nullopt;
  std::string bytes;
  bytes.reserve(token.size() / 2);
  for (size_t i = 0; i < token.size(); i += 2) {
    const int hi = HexValue(token[i]);
    const int lo = HexValue(token[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(hi << 4 | lo));
  }
  ScanIndex index;
  switch (bytes[0]) {
    case static_cast<char>(ScanIndex::kPuzzles):
      index = ScanIndex::kPuzzles;
      break;
    case static_cast<char>(ScanIndex::kCampaignMembers):
      index = ScanIndex::kCampaignMembers;
      break;
    case static_cast<char>(ScanIndex::kByScore):
      index = ScanIndex::kByScore;
      break;
    case static_cast<char>(ScanIndex::kByCreated):
      index = ScanIndex::kByCreated;
      break;
    default:
      return std::nullopt;
  }
  return PageToken{index, bytes.substr(1)};
}

}  // namespace foundry::storage::keys
