// The largest message the coordinator's gRPC server receives. Result chunks
// hold at most 1,000 puzzles and an import sends one puzzle a message, so
// this is what one puzzle may weigh on the wire; clients check it before
// sending (foundry import reports a larger line and sends the others).
#pragma once

#include <cstddef>

namespace foundry::coordinator {

inline constexpr size_t kMaxReceiveBytes = size_t{16} << 20;

}  // namespace foundry::coordinator
