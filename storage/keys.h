// Key layouts of the puzzle store: every byte the store writes as a key, in
// one place. Private to storage/ (bench/fleet_sim_floor also writes them, to
// measure RocksDB's cost for exactly the store's keys).
//
// Everything below is an on-disk format: never rename a column family, never
// change a layout or a tag byte. A change needs a new Store::kSchemaVersion.
//
// Column family      key                                   value
// -----------------  ------------------------------------  ------------------------------
// default            "schema_version"                      decimal ASCII, e.g. "3"
// puzzles            id                                    serialized foundry.v1.Puzzle
// by_family          (v1, v2; empty since v3)              -
// campaigns          campaign_id                           serialized foundry.v1.Campaign
// campaign_members   campaign_id \0 index (8 bytes, BE)    puzzle id
// plays              id                                    PlayCounts (play_counts_merge.h):
//                                                          solved u64 LE, failed u64 LE;
//                                                          solve_ms u64 LE; Merge only
// by_score (v2)      family \0 score (8 bytes) id          CatalogValue: level \0
//                                                          created_unix_ms (8 bytes, BE)
//                                                          campaign_id
// by_created (v2)    created_unix_ms (8 bytes, BE) id      empty until v3; since v4 the
//                                                          puzzle's draw seq (8 bytes, BE)
// by_draw (v4)       family \0 level \0 seq (8 bytes, BE)   DrawValue: score (8 bytes)
//                                                          created (8 bytes) campaign_id \0 id
// default (v4)       "draw_group" \0 family \0 level       next seq (8 bytes, BE), live
//                                                          puzzles (8 bytes, BE)
//
// by_draw numbers the puzzles of each (family, level) group densely, in
// commit order (seq 0, 1, 2, ...), so a uniform draw is a uniform seq below
// the group's `next` and one point lookup; a rolled-back puzzle leaves a
// hole that the draw rejects. The group keys hold `next` and the exact
// number of live puzzles, written in the commit's own WriteBatch, so the
// counts are read at open without a scan (docs/store.md, "Sampling").
//
// `score` is the generator's difficulty score as an order-preserving 8-byte
// big-endian image of the double (ScoreKey), so a range of keys is a range
// of scores. `created_unix_ms` is offset by 2^63 so that byte order is time
// order for every int64. by_score holds every filterable fact of a puzzle,
// which is what the schema 4 upgrade builds by_draw from.
//
// `family`, `level` and `campaign_id` never contain \0 (the store rejects
// them), so the \0 separators are unambiguous and a prefix scan of
// "family \0" visits exactly that family. `index` is big-endian so that byte
// order is candidate-index order.
//
// Schema 3 retired by_family (family \0 level \0 id): listings by family
// and level walk by_score, whose value holds the level. Its random-order key
// was a third of the memtable inserts that dominated a commit's cost
// (docs/store.md). The column family stays, empty, so that every version's
// set of column families is the same.
//
// Page tokens (Scan) are not stored but are held by clients between calls:
//   token = lowercase hex( tag  key )
//   tag   = 'p' (puzzles key), 'c' (campaign_members key), 's' (by_score
//           key), 't' (by_created key); 'f' (by_family) was schema 2's and is
//           refused now
//   key   = the iteration key of the last visited entry, in that column family.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace foundry::storage::keys {

// Column family names.
inline constexpr std::string_view kDefaultCf = "default";  // == rocksdb::kDefaultColumnFamilyName
inline constexpr std::string_view kPuzzlesCf = "puzzles";
inline constexpr std::string_view kByFamilyCf = "by_family";
inline constexpr std::string_view kCampaignsCf = "campaigns";
inline constexpr std::string_view kCampaignMembersCf = "campaign_members";
inline constexpr std::string_view kPlaysCf = "plays";
inline constexpr std::string_view kByScoreCf = "by_score";
inline constexpr std::string_view kByCreatedCf = "by_created";
inline constexpr std::string_view kByDrawCf = "by_draw";
inline constexpr std::string_view kRecordsCf = "records";

// Every column family of a store of this schema version, default first. The
// position of a name here is its index in RocksStore's handle array.
inline constexpr std::array<std::string_view, 10> kAllCfs = {
    kDefaultCf, kPuzzlesCf, kByFamilyCf,  kCampaignsCf, kCampaignMembersCf,
    kPlaysCf,   kByScoreCf, kByCreatedCf, kByDrawCf,    kRecordsCf};
// The column families that schema version 2 added (Open creates and fills
// them when it upgrades a version 1 store).
inline constexpr std::array<std::string_view, 2> kAddedInV2 = {kByScoreCf, kByCreatedCf};
// The column family that schema version 4 added (Open creates and fills it
// from by_score when it upgrades a store of version 1 to 3).
inline constexpr std::array<std::string_view, 1> kAddedInV4 = {kByDrawCf};
// The column family that schema version 5 added: the records, keyed by
// seq, while `puzzles` maps each id to its seq (record_table.h). Open moves
// a store of version 1 to 4 there, where `puzzles` holds the records.
inline constexpr std::array<std::string_view, 1> kAddedInV5 = {kRecordsCf};

// The meta key in the default column family.
inline constexpr std::string_view kSchemaVersionKey = "schema_version";
// While the upgrade to schema 5 runs: the last id whose record it moved
// (the default column family; gone once the version is 5).
inline constexpr std::string_view kUpgradeV5AfterKey = "upgrade_v5_after";

// The schema_version value: decimal ASCII.
std::string EncodeSchemaVersion(int version);
// nullopt unless `value` is a decimal number without sign or padding that
// fits an int.
std::optional<int> DecodeSchemaVersion(std::string_view value);

// True when `component` may be part of a composite key (no \0 byte). An
// empty component is allowed here; callers decide whether it is meaningful.
bool IsValidKeyComponent(std::string_view component);

// "family \0": the prefix of every by_score key of the family.
std::string FamilyPrefix(std::string_view family);

// campaign_members. REQUIRES: IsValidKeyComponent(campaign_id).
std::string CampaignMemberKey(std::string_view campaign_id, uint64_t index);
// "campaign_id \0": every member of the campaign, in index order.
std::string CampaignMemberPrefix(std::string_view campaign_id);
// The index of a member key; nullopt unless `key` is "<id> \0 <8 bytes>".
std::optional<uint64_t> ParseCampaignMemberIndex(std::string_view key);

// by_score. The 8-byte order-preserving image of `score` (any double but
// NaN; -0 sorts as 0).
std::string ScoreKey(double score);
double ParseScoreKey(std::string_view eight_bytes);
// "family \0 ScoreKey(score)": the first key of the family at `score`.
std::string ByScoreKeyPrefix(std::string_view family, double score);
std::string ByScoreKey(std::string_view family, double score, std::string_view id);

struct ByScoreParts {
  std::string_view family;
  double score = 0;
  std::string_view id;
};
std::optional<ByScoreParts> ParseByScoreKey(std::string_view key);

// The by_score value: the filterable facts beyond the key.
struct CatalogValue {
  std::string_view level;
  int64_t created_unix_ms = 0;
  std::string_view campaign_id;
};
std::string EncodeCatalogValue(std::string_view level, int64_t created_unix_ms,
                               std::string_view campaign_id);
std::optional<CatalogValue> DecodeCatalogValue(std::string_view value);

// by_created: the 8-byte order-preserving time, then the id.
std::string TimeKey(int64_t unix_ms);
std::string ByCreatedKey(int64_t created_unix_ms, std::string_view id);

// by_draw. "family \0 level \0": the prefix of every entry of the group.
// REQUIRES: IsValidKeyComponent(family), IsValidKeyComponent(level).
std::string DrawGroupPrefix(std::string_view family, std::string_view level);
// The group prefix and the seq, 8 bytes big-endian.
std::string DrawKey(std::string_view family, std::string_view level, uint64_t seq);

// The by_draw value: what a draw checks a filter against, and the id.
struct DrawValue {
  double score = 0;
  int64_t created_unix_ms = 0;
  std::string_view campaign_id;
  std::string_view id;
};
std::string EncodeDrawValue(double score, int64_t created_unix_ms, std::string_view campaign_id,
                            std::string_view id);
// nullopt for bytes EncodeDrawValue cannot have produced.
std::optional<DrawValue> DecodeDrawValue(std::string_view value);

// The group keys in the default column family: "draw_group \0 family \0
// level". Every one of them sorts in [kDrawGroupsBegin, kDrawGroupsEnd).
inline constexpr std::string_view kDrawGroupsBegin{"draw_group\0", 11};
inline constexpr std::string_view kDrawGroupsEnd{"draw_group\1", 11};
std::string DrawGroupKey(std::string_view family, std::string_view level);
struct DrawGroupName {
  std::string_view family;
  std::string_view level;
};
// nullopt unless `key` is a DrawGroupKey.
std::optional<DrawGroupName> ParseDrawGroupKey(std::string_view key);
// A group's counters: the next seq to give, and how many puzzles are live.
std::string EncodeDrawCounters(uint64_t next, uint64_t live);
// nullopt unless 16 bytes with live <= next.
std::optional<std::pair<uint64_t, uint64_t>> DecodeDrawCounters(std::string_view value);

// A by_created value since v4: the puzzle's seq in its by_draw group.
std::string EncodeSeq(uint64_t seq);
std::optional<uint64_t> DecodeSeq(std::string_view value);

// Page tokens: which index a Scan walks, and where it stopped.
enum class ScanIndex : char {
  kPuzzles = 'p',
  kCampaignMembers = 'c',
  kByScore = 's',
  kByCreated = 't',
};

struct PageToken {
  ScanIndex index;
  std::string key;
};

std::string EncodePageToken(ScanIndex index, std::string_view key);
// nullopt for anything EncodePageToken cannot have produced (odd length,
// non-hex characters, unknown tag, empty key).
std::optional<PageToken> DecodePageToken(std::string_view token);

}  // namespace foundry::storage::keys
