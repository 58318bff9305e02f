// Reads of a client stream that tell an unreadable message from the end.
//
// gRPC's synchronous Read answers false both when the client has finished
// and for a message whose bytes do not parse (not protobuf, or a text field
// that is not UTF-8), so a stream with such a message in it would look
// complete there and the messages after it would go unseen. A second Read
// tells the two apart: after the end it is false again, after an unreadable
// message it returns the next one. So every unreadable message but a
// stream's very last is named; that one, with nothing after it, still reads
// as the end.
//
// Thread safety: one per call, on the handler's thread.
#pragma once

#include <cstdint>

#include <fmt/format.h>
#include <grpcpp/support/sync_stream.h>

#include "common/status.h"

namespace foundry::coordinator {

template <typename Message>
class StreamReads {
 public:
  // `reader` must outlive this.
  explicit StreamReads(grpc::ServerReaderInterface<Message>* reader) : reader_(reader) {}

  // The next message into *m: true, or false at the end of the stream or at
  // an unreadable message (status() then says which).
  bool Next(Message* m) {
    if (reader_->Read(m)) {
      ++read_;
      return true;
    }
    if (status_.ok() && reader_->Read(m)) {
      status_ = Status::InvalidArgument(fmt::format(
          "message {} of the stream is not a valid {}: its bytes do not parse as protobuf, or a "
          "text field is not UTF-8",
          read_ + 1, Message::descriptor()->full_name()));
    }
    return false;
  }

  // Ok, or InvalidArgument naming the unreadable message that ended the
  // reads.
  const Status& status() const { return status_; }

 private:
  grpc::ServerReaderInterface<Message>* reader_;
  uint64_t read_ = 0;
  Status status_;
};

}  // namespace foundry::coordinator
