#include "console/tls_session.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace foundry::console {

void SslCtxFree::operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }

Result<TlsContext> MakeTlsContext(const std::string& cert_file, const std::string& key_file) {
  TlsContext ctx(SSL_CTX_new(TLS_server_method()));
  if (!ctx) return Status::Internal("OpenSSL cannot make a TLS context");
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  SSL_CTX_set_options(ctx.get(), SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
  SSL_CTX_set_mode(ctx.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  if (SSL_CTX_use_certificate_chain_file(ctx.get(), cert_file.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx.get(), key_file.c_str(), SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_check_private_key(ctx.get()) != 1) {
    ERR_clear_error();
    return Status::InvalidArgument(
        "--https-cert/--https-key: not a usable PEM certificate and key");
  }
  return ctx;
}

std::unique_ptr<TlsSession> TlsSession::Start(SSL_CTX* ctx, int fd) {
  SSL* ssl = SSL_new(ctx);
  if (ssl == nullptr) return nullptr;
  if (SSL_set_fd(ssl, fd) != 1) {
    SSL_free(ssl);
    return nullptr;
  }
  SSL_set_accept_state(ssl);
  return std::unique_ptr<TlsSession>(new TlsSession(ssl));
}

TlsSession::~TlsSession() { SSL_free(ssl_); }

TlsSession::Io TlsSession::Outcome(int ret) {
  switch (SSL_get_error(ssl_, ret)) {
    case SSL_ERROR_WANT_READ:
      return Io::kWantRead;
    case SSL_ERROR_WANT_WRITE:
      return Io::kWantWrite;
    case SSL_ERROR_ZERO_RETURN:
      return Io::kClosed;
    default:
      ERR_clear_error();
      return Io::kError;
  }
}

TlsSession::Io TlsSession::Handshake() {
  if (established_) return Io::kDone;
  const int ret = SSL_do_handshake(ssl_);
  if (ret == 1) {
    established_ = true;
    return Io::kDone;
  }
  return Outcome(ret);
}

TlsSession::Io TlsSession::Read(std::string& out, size_t max) {
  const size_t old = out.size();
  out.resize(old + max);
  size_t got = 0;
  const int ret = SSL_read_ex(ssl_, out.data() + old, max, &got);
  out.resize(old + (ret == 1 ? got : 0));
  return ret == 1 ? Io::kDone : Outcome(ret);
}

TlsSession::Io TlsSession::Write(const char* data, size_t size, size_t* written) {
  *written = 0;
  const int ret = SSL_write_ex(ssl_, data, size, written);
  return ret == 1 ? Io::kDone : Outcome(ret);
}

void TlsSession::Shutdown() {
  if (established_) SSL_shutdown(ssl_);
  ERR_clear_error();
}

}  // namespace foundry::console
