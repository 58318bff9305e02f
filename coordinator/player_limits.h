// The bounds of what a game server sends about its players, shared by every
// call that takes them (store_players.cc, play_export.cc).
#pragma once

#include <cstddef>

namespace foundry::coordinator {

// A player_id is at most this many bytes (and holds no NUL byte).
inline constexpr size_t kMaxPlayerIdBytes = 128;

}  // namespace foundry::coordinator
