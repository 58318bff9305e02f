// StreamLimiter: bounds the long streams the coordinator serves (ExportPuzzles
// and ExportPlays; SubmitResults with its own limits) so that no client can
// pin its threads and memory. Each open stream holds a
// server thread and a store snapshot until it ends; a client that opens
// streams and never reads them once took the coordinator to 1,023 threads
// and 758 MB.
//
// Three rules: at most `max_streams` open at once in all, at most
// `max_streams_per_client` per client (a client is its bearer token when it
// sends one, else its address), and a stream whose client takes nothing for
// `idle_timeout` is cancelled (a watchdog thread checks every fraction of
// it), which frees its thread.
//
// Thread safety: all methods may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <grpcpp/grpcpp.h>

namespace foundry::coordinator {

struct StreamLimits {
  // Streams open at once, all clients together.
  int max_streams = 64;
  // Streams open at once for one client (token, or address without one).
  int max_streams_per_client = 8;
  // A stream that moves no message for this long is ended.
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(60);
  // How refusals and idle ends name the streams and the flags that set the
  // three limits above.
  std::string noun = "export streams";
  std::string idle_end = "the export was ended: its client read nothing";
  std::string max_flag = "--max-streams";
  std::string per_client_flag = "--max-streams-per-client";
  std::string idle_flag = "--stream-idle-seconds";
};

class StreamLimiter {
 public:
  // One admitted stream; releasing it (destruction) frees its place.
  class Ticket {
   public:
    ~Ticket();
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    // Call after every message the stream moved: it is not idle.
    void Progress();
    // True when the watchdog ended the stream for idleness.
    bool idle_ended() const;

   private:
    friend class StreamLimiter;
    Ticket(StreamLimiter& owner, uint64_t id) : owner_(owner), id_(id) {}
    StreamLimiter& owner_;
    uint64_t id_;
  };

  // REQUIRES: every limit positive.
  explicit StreamLimiter(StreamLimits limits);
  // Stops the watchdog. REQUIRES: no Ticket alive.
  ~StreamLimiter();
  StreamLimiter(const StreamLimiter&) = delete;
  StreamLimiter& operator=(const StreamLimiter&) = delete;

  // Admits a new stream of `context`'s caller into `*ticket`, or returns
  // RESOURCE_EXHAUSTED naming the limit that is full and the flag that
  // sets it. `context` must outlive the ticket (the watchdog may cancel it).
  grpc::Status Admit(grpc::ServerContextBase* context, std::unique_ptr<Ticket>* ticket);

  const StreamLimits& limits() const { return limits_; }
  // Streams open now.
  int open() const;

  // The client a call counts against: "token:<hash of its bearer token>"
  // when it sends one, else "peer:<its address without the port>".
  static std::string ClientKey(const grpc::ServerContextBase& context);

 private:
  struct Entry {
    grpc::ServerContextBase* context;
    std::string client;
    std::chrono::steady_clock::time_point last_progress;
    bool idle_ended = false;
  };
  void Release(uint64_t id);
  void Touch(uint64_t id);
  bool IdleEnded(uint64_t id) const;
  void Watch();

  const StreamLimits limits_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  uint64_t next_id_ = 1;
  std::map<uint64_t, Entry> open_;
  std::map<std::string, int> per_client_;
  std::thread watchdog_;
};

// How a server stream that `ticket` (null: not limited) admitted ends: its
// client read nothing for too long, went away (`client_gone`), or OK.
grpc::Status StreamEndStatus(const StreamLimiter* streams, const StreamLimiter::Ticket* ticket,
                             bool client_gone);

}  // namespace foundry::coordinator
