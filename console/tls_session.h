// TlsSession: the server side of one TLS connection over a non-blocking
// socket, for the console's connection gate (http_gate.h), which does the
// handshake and reads requests in its poll loop and hands complete requests
// to a worker that writes the answer. OpenSSL, as the HTTP library uses.
//
// Thread safety: none; one thread at a time (the gate, then one worker).
#pragma once

#include <memory>
#include <string>

#include "common/status.h"

using SSL_CTX = struct ssl_ctx_st;
using SSL = struct ssl_st;

namespace foundry::console {

// A server context for the PEM certificate chain and key files (TLS 1.2 at
// least). InvalidArgument when they cannot be used together.
struct SslCtxFree {
  void operator()(SSL_CTX* ctx) const;
};
using TlsContext = std::unique_ptr<SSL_CTX, SslCtxFree>;
Result<TlsContext> MakeTlsContext(const std::string& cert_file, const std::string& key_file);

class TlsSession {
 public:
  // What an operation needs next.
  enum class Io { kDone, kWantRead, kWantWrite, kClosed, kError };

  // A session on the accepted socket `fd` (not owned). Null when OpenSSL
  // cannot make one.
  static std::unique_ptr<TlsSession> Start(SSL_CTX* ctx, int fd);
  ~TlsSession();
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  // Advances the handshake: kDone once complete.
  Io Handshake();
  bool established() const { return established_; }
  // Appends up to `max` decrypted bytes to `out`: kDone when some came (call
  // again: OpenSSL may hold more than the socket shows), kWantRead when none
  // is there yet, kClosed at the peer's end.
  Io Read(std::string& out, size_t max);
  // Writes some of [data, data+size): kDone with `*written` > 0, or what it
  // waits for.
  Io Write(const char* data, size_t size, size_t* written);
  // Sends close_notify, best effort.
  void Shutdown();

 private:
  explicit TlsSession(SSL* ssl) : ssl_(ssl) {}
  Io Outcome(int ret);

  SSL* ssl_;
  bool established_ = false;
};

}  // namespace foundry::console
