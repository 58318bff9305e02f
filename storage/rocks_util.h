// Small helpers shared by the files of RocksStore. Private to storage/.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include <rocksdb/slice.h>
#include <rocksdb/status.h>

#include "common/status.h"

namespace foundry::storage {

// Maps a RocksDB status onto ours. `what` says what we were doing; the
// RocksDB text is kept verbatim so that an operator can search for it.
Status FromRocks(const rocksdb::Status& s, const std::string& dir, std::string_view what);

// Maps a failed filesystem call on `path` onto ours: permission errors are
// PERMISSION_DENIED, a full disk RESOURCE_EXHAUSTED, a path that cannot be
// used (a missing parent, a file where a directory should be, a read-only
// file system, a name too long) FAILED_PRECONDITION, the rest INTERNAL.
// The message is "<what> <path>: <the system's words>".
Status FromErrorCode(const std::error_code& ec, std::string_view what, const std::string& path);

// Free bytes for an unprivileged writer on the filesystem of `dir`, or
// nullopt when it cannot be told (then RocksDB's own errors speak).
std::optional<uint64_t> FreeBytes(const std::string& dir);

inline rocksdb::Slice ToSlice(std::string_view v) { return rocksdb::Slice(v.data(), v.size()); }

inline bool StartsWith(const rocksdb::Slice& s, std::string_view prefix) {
  return s.size() >= prefix.size() && std::memcmp(s.data(), prefix.data(), prefix.size()) == 0;
}

// Serializes `message` into `out`, making sure the bytes read back: protobuf
// writes a proto3 string field holding invalid UTF-8 (and logs an error) but
// refuses to parse it, so such a record would be stored and then unreadable.
template <typename Message>
bool SerializeReadable(const Message& message, std::string* out) {
  if (!message.SerializeToString(out)) return false;
  Message check;
  return check.ParseFromString(*out);
}

}  // namespace foundry::storage
