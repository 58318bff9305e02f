// ClientSecurity: how a worker or the CLI talks to a coordinator — plaintext
// or TLS (optionally with a client certificate), and the bearer token sent
// with every call.
//
// Thread safety: immutable after construction; safe to share.
#pragma once

#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "common/status.h"

namespace foundry {

struct ClientSecurityFiles {
  std::string tls_ca;      // PEM of the CA that signed the server; enables TLS
  std::string tls_cert;    // PEM client certificate, for mutual TLS
  std::string tls_key;     // PEM private key of tls_cert
  std::string token_file;  // a file holding the bearer token (owner-only: token_file.h)
  bool allow_shared_token_file = false;  // read token_file even when others may access it
};

class ClientSecurity {
 public:
  // Reads the files. Empty names are fine (plaintext, no token). Errors:
  // InvalidArgument naming a file that cannot be read, or a cert without key;
  // PermissionDenied for a token file the group or others may access
  // (ReadTokenFile) unless allow_shared_token_file.
  static Result<ClientSecurity> Load(const ClientSecurityFiles& files);

  // The same, from FOUNDRY_TLS_CA, FOUNDRY_TLS_CERT, FOUNDRY_TLS_KEY and
  // FOUNDRY_TOKEN_FILE (the CLI's way; daemons take flags);
  // FOUNDRY_ALLOW_SHARED_TOKEN_FILE=1 is their --allow-shared-token-file.
  static Result<ClientSecurity> FromEnvironment();

  // A channel to `address` with these credentials.
  std::shared_ptr<grpc::Channel> Connect(const std::string& address,
                                         const grpc::ChannelArguments& args) const;

  // Adds "authorization: Bearer <token>" when a token is set.
  void Apply(grpc::ClientContext& context) const;

  bool tls() const { return !ca_pem_.empty(); }
  // The bearer token (trimmed), "" when none.
  const std::string& token() const { return token_; }

 private:
  std::string ca_pem_, cert_pem_, key_pem_, token_;
};

// The whole content of `path`, or InvalidArgument naming it.
Result<std::string> ReadSecretFile(const std::string& path);

}  // namespace foundry
