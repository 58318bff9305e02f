// TLS and bearer tokens against a real coordinator: plaintext clients fail,
// calls without a token are rejected, a reader cannot start or cancel
// campaigns, workers and the CLI work over TLS with tokens, and the
// coordinator refuses to listen off loopback unprotected.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <future>

#include <grpcpp/generic/generic_stub.h>

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include "common/client_security.h"
#include "foundry/v1/backup.grpc.pb.h"
#include "foundry/v1/campaign.grpc.pb.h"
#include "foundry/v1/store.grpc.pb.h"
#include "foundry/v1/worker.grpc.pb.h"
#include "puzzles/fingerprint.h"
#include "tests/integration/cluster.h"
#include "tests/integration/foundry_cli.h"

namespace foundry::testing {
namespace {

namespace v1 = foundry::v1;

// A CA, a server certificate for 127.0.0.1 and a client certificate, made
// with the openssl command line in `dir`.
bool MakeCertificates(const std::string& dir) {
  const std::string script = "set -e; cd '" + dir + R"(';
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=foundry-test-ca 2>/dev/null
for who in server client; do
  openssl req -newkey rsa:2048 -nodes -keyout $who.key -out $who.csr -subj /CN=$who 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > $who.ext
  openssl x509 -req -in $who.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out $who.pem -days 2 -extfile $who.ext 2>/dev/null
done
umask 077
printf 'admin-secret-token\n' > admin.token
printf 'reader-secret-token\n' > reader.token
printf 'worker-secret-token\n' > worker.token
)";
  return RunCommand({"/bin/sh", "-c", script}).exit_code == 0;
}

class SecurityTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(MakeCertificates(dir_.path())) << "openssl failed"; }

  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }

  // Starts a TLS coordinator with both tokens; returns its port.
  int StartCoordinator(bool mutual_tls = false) {
    std::vector<std::string> argv = {Bin("foundry-coordinator"),
                                     "--listen",
                                     "127.0.0.1:0",
                                     "--db",
                                     Path("db"),
                                     "--tls-cert",
                                     Path("server.pem"),
                                     "--tls-key",
                                     Path("server.key"),
                                     "--admin-token-file",
                                     Path("admin.token"),
                                     "--reader-token-file",
                                     Path("reader.token"),
                                     "--worker-token-file",
                                     Path("worker.token")};
    if (mutual_tls) {
      argv.push_back("--tls-client-ca");
      argv.push_back(Path("ca.pem"));
    }
    coordinator_ = std::make_unique<Subprocess>(argv, Path("coordinator.log"));
    return WaitForNumberAfter(*coordinator_, "listening on port ");
  }

  std::unique_ptr<v1::CampaignService::Stub> Campaigns(const ClientSecurity& security, int port) {
    return v1::CampaignService::NewStub(
        security.Connect("127.0.0.1:" + std::to_string(port), grpc::ChannelArguments()));
  }

  static ClientSecurity Client(const std::string& ca, const std::string& token,
                               const std::string& cert = "", const std::string& key = "") {
    auto s = ClientSecurity::Load({ca, cert, key, token});
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? *s : ClientSecurity();
  }

  static grpc::Status Submit(v1::CampaignService::Stub& stub, const ClientSecurity& security,
                             v1::Campaign* out) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    security.Apply(ctx);
    v1::SubmitCampaignRequest req;
    req.mutable_spec()->set_family("secret-number");
    req.mutable_spec()->set_count(500);
    return stub.SubmitCampaign(&ctx, req, out);
  }

  TempDir dir_;
  std::unique_ptr<Subprocess> coordinator_;
};

TEST_F(SecurityTest, RolesAreEnforcedAndTlsIsReallyUsed) {
  const int port = StartCoordinator();
  ASSERT_GT(port, 0) << coordinator_->Log();
  const std::string address = "127.0.0.1:" + std::to_string(port);
  v1::Campaign campaign;

  // A plaintext client cannot even talk to a TLS port.
  ClientSecurity plaintext = Client("", Path("admin.token"));
  EXPECT_EQ(Submit(*Campaigns(plaintext, port), plaintext, &campaign).error_code(),
            grpc::StatusCode::UNAVAILABLE);

  // TLS without a token, or with a wrong one: unauthenticated.
  ClientSecurity anonymous = Client(Path("ca.pem"), "");
  auto s = Submit(*Campaigns(anonymous, port), anonymous, &campaign);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << s.error_message();
  { std::ofstream(Path("wrong.token")) << "guess"; }
  ::chmod(Path("wrong.token").c_str(), 0600);  // token files are the owner's alone
  ClientSecurity wrong = Client(Path("ca.pem"), Path("wrong.token"));
  EXPECT_EQ(Submit(*Campaigns(wrong, port), wrong, &campaign).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);

  // A reader reads, but cannot start or cancel campaigns or take jobs.
  ClientSecurity reader = Client(Path("ca.pem"), Path("reader.token"));
  auto stub = Campaigns(reader, port);
  s = Submit(*stub, reader, &campaign);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  {
    grpc::ClientContext ctx;
    reader.Apply(ctx);
    v1::ListCampaignsResponse list;
    EXPECT_TRUE(stub->ListCampaigns(&ctx, {}, &list).ok());
  }

  // The admin starts a campaign; a TLS worker with the admin token runs it.
  ClientSecurity admin = Client(Path("ca.pem"), Path("admin.token"));
  ASSERT_TRUE(Submit(*Campaigns(admin, port), admin, &campaign).ok());
  // CancelCampaign of that campaign with `who`'s credentials.
  const auto cancel_as = [&](const ClientSecurity& who) {
    grpc::ClientContext ctx;
    who.Apply(ctx);
    v1::CancelCampaignRequest req;
    req.set_campaign_id(campaign.id());
    v1::Campaign out;
    return Campaigns(who, port)->CancelCampaign(&ctx, req, &out).error_code();
  };
  EXPECT_EQ(cancel_as(reader), grpc::StatusCode::PERMISSION_DENIED);
  {
    auto workers = v1::WorkerService::NewStub(reader.Connect(address, grpc::ChannelArguments()));
    grpc::ClientContext ctx;
    reader.Apply(ctx);
    v1::LeaseRequest req;
    req.set_worker_id("sneaky-reader");
    req.set_generation_fingerprint(puzzles::GenerationFingerprint());
    v1::LeaseResponse resp;
    EXPECT_EQ(workers->Lease(&ctx, req, &resp).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  }
  // The worker token: it may not start, cancel, import or read...
  ClientSecurity worker_token = Client(Path("ca.pem"), Path("worker.token"));
  {
    v1::Campaign other;
    EXPECT_EQ(Submit(*Campaigns(worker_token, port), worker_token, &other).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_EQ(cancel_as(worker_token), grpc::StatusCode::PERMISSION_DENIED);
    auto store = v1::PuzzleStore::NewStub(worker_token.Connect(address, grpc::ChannelArguments()));
    grpc::ClientContext get_ctx;
    worker_token.Apply(get_ctx);
    v1::GetPuzzleRequest get;
    get.set_id("sd-0123456789abcdef0123456789abcdef");
    v1::Puzzle puzzle;
    const grpc::Status read = store->GetPuzzle(&get_ctx, get, &puzzle);
    EXPECT_EQ(read.error_code(), grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_NE(read.error_message().find("worker token may only lease"), std::string::npos);
    { std::ofstream(Path("one.jsonl")) << "{}\n"; }
    setenv("FOUNDRY_TLS_CA", Path("ca.pem").c_str(), 1);
    setenv("FOUNDRY_TOKEN_FILE", Path("worker.token").c_str(), 1);
    auto import =
        RunCommand({Bin("foundry"), "import", Path("one.jsonl"), "--coordinator", address});
    EXPECT_NE(import.exit_code, 0);
    EXPECT_NE(import.err.find("worker token"), std::string::npos) << import.err;
    unsetenv("FOUNDRY_TLS_CA");
    unsetenv("FOUNDRY_TOKEN_FILE");
  }
  // ...and runs the campaign.
  Subprocess worker({Bin("foundry-worker"), "--coordinator", address, "--threads", "1", "--tls-ca",
                     Path("ca.pem"), "--token-file", Path("worker.token")},
                    Path("worker.log"));
  // The CLI over TLS with the reader token: it can watch and export.
  setenv("FOUNDRY_TLS_CA", Path("ca.pem").c_str(), 1);
  setenv("FOUNDRY_TOKEN_FILE", Path("reader.token").c_str(), 1);
  auto watched = WatchCampaign(address, campaign.id());
  EXPECT_EQ(watched.exit_code, 0) << watched.out << watched.err << worker.Log();
  EXPECT_EQ(ExportedIds(address).size(), 500u);
  // …and cannot cancel.
  auto cancel =
      RunCommand({Bin("foundry"), "campaign", "cancel", "--coordinator", address, campaign.id()});
  EXPECT_EQ(cancel.exit_code, 1);
  EXPECT_NE(cancel.err.find("reader token"), std::string::npos) << cancel.err;
  unsetenv("FOUNDRY_TLS_CA");
  unsetenv("FOUNDRY_TOKEN_FILE");
  EXPECT_TRUE(worker.Stop().has_value());
}

// grpc.health.v1.Health/Check over `channel`; the response's bytes.
std::string HealthCheck(const std::shared_ptr<grpc::Channel>& channel, grpc::Status* status) {
  grpc::GenericStub stub(channel);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  grpc::Slice empty("", 0);  // HealthCheckRequest{service: ""} encodes to no bytes
  grpc::ByteBuffer request(&empty, 1), response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request, &response,
                 [&](grpc::Status s) { done.set_value(s); });
  *status = done.get_future().get();
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (status->ok() && response.Dump(&slices).ok()) {
    for (const auto& s : slices) bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  return bytes;
}

TEST_F(SecurityTest, PlaintextHealthPortServesOnlyHealth) {
  coordinator_ = std::make_unique<Subprocess>(
      std::vector<std::string>{Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db",
                               Path("db"), "--tls-cert", Path("server.pem"), "--tls-key",
                               Path("server.key"), "--admin-token-file", Path("admin.token"),
                               "--health-listen", "127.0.0.1:0"},
      Path("coordinator.log"));
  const int health_port = WaitForNumberAfter(*coordinator_, "health port ");
  ASSERT_GT(health_port, 0) << coordinator_->Log();
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(health_port),
                                     grpc::InsecureChannelCredentials());
  grpc::Status status;
  // HealthCheckResponse{status: SERVING} is field 1 = 1: bytes 08 01.
  EXPECT_EQ(HealthCheck(channel, &status), std::string("\x08\x01", 2));
  EXPECT_TRUE(status.ok()) << status.error_message();
  // Nothing else lives there.
  auto campaigns = v1::CampaignService::NewStub(channel);
  grpc::ClientContext ctx;
  v1::ListCampaignsResponse list;
  EXPECT_EQ(campaigns->ListCampaigns(&ctx, {}, &list).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(SecurityTest, MutualTlsNeedsAClientCertificate) {
  const int port = StartCoordinator(/*mutual_tls=*/true);
  ASSERT_GT(port, 0) << coordinator_->Log();
  v1::Campaign campaign;
  ClientSecurity no_cert = Client(Path("ca.pem"), Path("admin.token"));
  EXPECT_EQ(Submit(*Campaigns(no_cert, port), no_cert, &campaign).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  ClientSecurity with_cert =
      Client(Path("ca.pem"), Path("admin.token"), Path("client.pem"), Path("client.key"));
  auto s = Submit(*Campaigns(with_cert, port), with_cert, &campaign);
  EXPECT_TRUE(s.ok()) << s.error_message();
}

// A reader token is a game server's: it records plays; a worker token may not.
TEST_F(SecurityTest, ReadersRecordPlaysWorkersDoNot) {
  const int port = StartCoordinator();
  ASSERT_GT(port, 0) << coordinator_->Log();
  const std::string address = "127.0.0.1:" + std::to_string(port);
  auto play = [&](const std::string& token_file) {
    // The generated stub with the token set by hand: no client wrapper.
    const std::string token = *ReadSecretFile(Path(token_file));
    grpc::SslCredentialsOptions tls;
    tls.pem_root_certs = *ReadSecretFile(Path("ca.pem"));
    auto store = v1::PuzzleStore::NewStub(grpc::CreateChannel(address, grpc::SslCredentials(tls)));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    ctx.AddMetadata("authorization", "Bearer " + token.substr(0, token.find('\n')));
    v1::RecordPlayRequest req;
    req.set_id("sn-0123456789abcdef0123456789abcdef");
    req.set_solved(true);
    req.set_seconds(12);
    v1::RecordPlayResponse resp;
    return store->RecordPlay(&ctx, req, &resp);
  };
  // Past the role check: the puzzle is simply not there.
  EXPECT_EQ(play("reader.token").error_code(), grpc::StatusCode::NOT_FOUND);
  const grpc::Status worker = play("worker.token");
  EXPECT_EQ(worker.error_code(), grpc::StatusCode::PERMISSION_DENIED) << worker.error_message();
}

// A token file the group or others may read is refused by every program
// that reads one, naming the file and its mode, unless told otherwise.
TEST_F(SecurityTest, SharedTokenFilesAreRefusedUnlessAllowed) {
  const std::string shared = Path("shared.token");
  { std::ofstream(shared) << "worker-secret-token\n"; }
  ASSERT_EQ(::chmod(shared.c_str(), 0644), 0);
  const std::string mode = "'" + shared + "' has mode 0644";
  auto coordinator = RunCommand({Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db",
                                 Path("db-shared"), "--admin-token-file", shared},
                                std::chrono::seconds(30));
  EXPECT_EQ(coordinator.exit_code, 1);
  EXPECT_NE(coordinator.err.find(mode), std::string::npos) << coordinator.err;
  EXPECT_NE(coordinator.err.find("--allow-shared-token-file"), std::string::npos)
      << coordinator.err;
  auto worker =
      RunCommand({Bin("foundry-worker"), "--coordinator", "127.0.0.1:1", "--token-file", shared},
                 std::chrono::seconds(30));
  EXPECT_EQ(worker.exit_code, 1);
  EXPECT_NE(worker.err.find(mode), std::string::npos) << worker.err;
  auto console = RunCommand({Bin("foundry-console"), "--coordinator", "127.0.0.1:1", "--listen",
                             "127.0.0.1:0", "--token-file", shared},
                            std::chrono::seconds(30));
  EXPECT_EQ(console.exit_code, 2);
  EXPECT_NE(console.err.find(mode), std::string::npos) << console.err;
  setenv("FOUNDRY_TOKEN_FILE", shared.c_str(), 1);
  auto cli = RunCommand({Bin("foundry"), "stats", "--coordinator", "127.0.0.1:1"},
                        std::chrono::seconds(30));
  EXPECT_NE(cli.err.find(mode), std::string::npos) << cli.err;
  EXPECT_EQ(cli.exit_code, 1) << "the CLI went on without its token";
  unsetenv("FOUNDRY_TOKEN_FILE");
  // Group-readable (0640) is refused too; the flag lets a shared file through.
  ASSERT_EQ(::chmod(shared.c_str(), 0640), 0);
  EXPECT_FALSE(ClientSecurity::Load({"", "", "", shared}).ok());
  ClientSecurityFiles allowed{"", "", "", shared};
  allowed.allow_shared_token_file = true;
  auto loaded = ClientSecurity::Load(allowed);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->token(), "worker-secret-token");
  Subprocess started({Bin("foundry-coordinator"), "--listen", "127.0.0.1:0", "--db",
                      Path("db-shared"), "--admin-token-file", shared, "--allow-shared-token-file"},
                     Path("shared.log"));
  EXPECT_GT(WaitForNumberAfter(started, "listening on port "), 0) << started.Log();
  EXPECT_TRUE(started.Stop().has_value());
}

TEST_F(SecurityTest, OffLoopbackWithoutProtectionIsRefusedUnlessInsecure) {
  auto refused =
      RunCommand({Bin("foundry-coordinator"), "--listen", "0.0.0.0:0", "--db", Path("db1")},
                 std::chrono::seconds(30));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("refusing to listen on 0.0.0.0:0 without TLS"), std::string::npos)
      << refused.err;
  // TLS but no token is refused too.
  refused = RunCommand({Bin("foundry-coordinator"), "--listen", "0.0.0.0:0", "--db", Path("db1"),
                        "--tls-cert", Path("server.pem"), "--tls-key", Path("server.key")},
                       std::chrono::seconds(30));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("without an admin token"), std::string::npos) << refused.err;

  Subprocess insecure(
      {Bin("foundry-coordinator"), "--listen", "0.0.0.0:0", "--db", Path("db2"), "--insecure"},
      Path("insecure.log"));
  EXPECT_GT(WaitForNumberAfter(insecure, "listening on port "), 0) << insecure.Log();
  EXPECT_NE(insecure.Log().find("*** WARNING"), std::string::npos);
  EXPECT_TRUE(insecure.Stop().has_value());
}

TEST_F(SecurityTest, ARefusedStartCreatesNothing) {
  // Every refusal of the flags and the listen address comes before the
  // store directory is made: a mistyped start leaves no empty store behind.
  const std::vector<std::vector<std::string>> refused = {
      {"--listen", "0.0.0.0:0"},
      {"--listen", "0.0.0.0:0", "--tls-cert", Path("server.pem"), "--tls-key", Path("server.key")},
      {"--tls-cert", Path("server.pem")},
      {"--tls-client-ca", Path("ca.pem")},
      {"--reader-token-file", Path("reader.token")},
      {"--admin-token-file", Path("no-such.token")},
      {"--admin-token-file", Path("admin.token"), "--reader-token-file", Path("admin.token")},
      {"--metrics-listen", "not-an-address"},
  };
  for (const auto& flags : refused) {
    std::vector<std::string> argv = {Bin("foundry-coordinator"), "--db", Path("never/db")};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto r = RunCommand(argv, std::chrono::seconds(30));
    EXPECT_EQ(r.exit_code, 1) << flags[0] << ": " << r.err;
    EXPECT_FALSE(r.err.empty()) << flags[0];
    EXPECT_FALSE(std::filesystem::exists(Path("never")))
        << "created by a start refused for " << flags[0] << ": " << r.err;
  }
  // TLS material that does not read is named with the reason.
  for (const auto& [cert, why] : {std::pair{Path("missing.pem"), "No such file or directory"},
                                  std::pair{Path(""), "it is a directory"}}) {
    auto r = RunCommand({Bin("foundry-coordinator"), "--db", Path("never/db"), "--tls-cert", cert,
                         "--tls-key", Path("server.key")},
                        std::chrono::seconds(30));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("cannot read '" + cert + "': " + why), std::string::npos) << r.err;
  }
}

TEST_F(SecurityTest, BackupsNeedTheAdminToken) {
  const int port = StartCoordinator();
  ASSERT_GT(port, 0) << coordinator_->Log();
  const auto call = [&](const std::string& token) {
    ClientSecurity security = Client(Path("ca.pem"), token.empty() ? "" : Path(token));
    auto stub = v1::StoreAdmin::NewStub(
        security.Connect("127.0.0.1:" + std::to_string(port), grpc::ChannelArguments()));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    security.Apply(ctx);
    v1::BackupStoreRequest req;
    req.set_backup_dir(Path("backups"));
    v1::BackupStoreResponse resp;
    return stub->BackupStore(&ctx, req, &resp).error_code();
  };
  EXPECT_EQ(call(""), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call("reader.token"), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(call("worker.token"), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_FALSE(std::filesystem::exists(Path("backups")));
  EXPECT_EQ(call("admin.token"), grpc::StatusCode::OK);
  EXPECT_TRUE(std::filesystem::is_directory(Path("backups") + "/meta"));
}

}  // namespace
}  // namespace foundry::testing
