#include "common/client_security.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/token_file.h"

namespace foundry {

Result<std::string> ReadSecretFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::InvalidArgument("cannot read '" + path + "': it is a directory");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    // errno from the failed open(2) says why: no such file, no permission.
    const int err = errno;
    return Status::InvalidArgument("cannot read '" + path + "'" +
                                   (err != 0 ? std::string(": ") + std::strerror(err) : ""));
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

// Tokens are stored one per file; surrounding whitespace is not part of it.
std::string Trim(std::string s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

}  // namespace

Result<ClientSecurity> ClientSecurity::Load(const ClientSecurityFiles& files) {
  ClientSecurity s;
  auto read = [](const std::string& path, std::string& out) -> Status {
    if (path.empty()) return Status::Ok();
    auto content = ReadSecretFile(path);
    if (!content.ok()) return content.status();
    out = std::move(*content);
    return Status::Ok();
  };
  FOUNDRY_RETURN_IF_ERROR(read(files.tls_ca, s.ca_pem_));
  FOUNDRY_RETURN_IF_ERROR(read(files.tls_cert, s.cert_pem_));
  FOUNDRY_RETURN_IF_ERROR(read(files.tls_key, s.key_pem_));
  if (!files.token_file.empty()) {
    auto token = ReadTokenFile(files.token_file, files.allow_shared_token_file);
    if (!token.ok()) return token.status();
    s.token_ = std::move(*token);
  }
  s.token_ = Trim(s.token_);
  if (s.cert_pem_.empty() != s.key_pem_.empty()) {
    return Status::InvalidArgument("a client certificate needs its key, and a key its certificate");
  }
  if (!s.cert_pem_.empty() && s.ca_pem_.empty()) {
    return Status::InvalidArgument("a client certificate needs TLS: give the server's CA too");
  }
  if (!files.token_file.empty() && s.token_.empty()) {
    return Status::InvalidArgument("token file '" + files.token_file + "' is empty");
  }
  return s;
}

Result<ClientSecurity> ClientSecurity::FromEnvironment() {
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  return Load({env("FOUNDRY_TLS_CA"), env("FOUNDRY_TLS_CERT"), env("FOUNDRY_TLS_KEY"),
               env("FOUNDRY_TOKEN_FILE"), env("FOUNDRY_ALLOW_SHARED_TOKEN_FILE") == "1"});
}

std::shared_ptr<grpc::Channel> ClientSecurity::Connect(const std::string& address,
                                                       const grpc::ChannelArguments& args) const {
  if (!tls()) return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
  grpc::SslCredentialsOptions opts;
  opts.pem_root_certs = ca_pem_;
  opts.pem_cert_chain = cert_pem_;
  opts.pem_private_key = key_pem_;
  return grpc::CreateCustomChannel(address, grpc::SslCredentials(opts), args);
}

void ClientSecurity::Apply(grpc::ClientContext& context) const {
  if (!token_.empty()) context.AddMetadata("authorization", "Bearer " + token_);
}

}  // namespace foundry
