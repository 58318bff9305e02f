#include "cli/puzzle_source.h"

#include "cli/client.h"
#include "common/rpc_status.h"
#include "coordinator/coordinator.h"
#include "coordinator/services.h"
#include "foundry/v1/store.grpc.pb.h"
#include "storage/store.h"

namespace foundry::cli {
namespace {

foundry::v1::GetPuzzleRequest GetRequest(const std::string& id, bool include_solution) {
  foundry::v1::GetPuzzleRequest req;
  req.set_id(id);
  req.set_include_solution(include_solution);
  return req;
}

foundry::v1::RecordPlayRequest PlayRequest(const std::string& id, bool solved, double seconds) {
  foundry::v1::RecordPlayRequest req;
  req.set_id(id);
  req.set_solved(solved);
  req.set_seconds(seconds);
  return req;
}

Status FromRpc(const grpc::Status& s, const std::string& address) {
  return FromGrpc(grpc::Status(s.error_code(), DescribeRpcError(s, address)));
}

class RemoteSource final : public PuzzleSource {
 public:
  explicit RemoteSource(std::string address)
      : address_(std::move(address)), stub_(foundry::v1::PuzzleStore::NewStub(Connect(address_))) {}

  Result<foundry::v1::Puzzle> Get(const std::string& id, bool include_solution) override {
    const foundry::v1::GetPuzzleRequest req = GetRequest(id, include_solution);
    foundry::v1::Puzzle p;
    auto ctx = CallContext();
    grpc::Status s = stub_->GetPuzzle(ctx.get(), req, &p);
    if (!s.ok()) return FromRpc(s, address_);
    return p;
  }

  Result<foundry::v1::SampleResponse> Sample(const foundry::v1::SampleRequest& req) override {
    foundry::v1::SampleResponse resp;
    auto ctx = CallContext();
    grpc::Status s = stub_->SamplePuzzles(ctx.get(), req, &resp);
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

  Result<foundry::v1::StatsResponse> Stats() override {
    foundry::v1::StatsResponse resp;
    auto ctx = CallContext();
    grpc::Status s = stub_->GetStats(ctx.get(), foundry::v1::StatsRequest(), &resp);
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

  Result<foundry::v1::RecordPlayResponse> RecordPlay(const std::string& id, bool solved,
                                                     double seconds) override {
    const foundry::v1::RecordPlayRequest req = PlayRequest(id, solved, seconds);
    foundry::v1::RecordPlayResponse resp;
    auto ctx = CallContext();
    grpc::Status s = stub_->RecordPlay(ctx.get(), req, &resp);
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

  Result<foundry::v1::RecordPlayResponse> Play(const foundry::v1::RecordPlayRequest& req) override {
    foundry::v1::RecordPlayResponse resp;
    auto ctx = CallContext();
    grpc::Status s = stub_->RecordPlay(ctx.get(), req, &resp);
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

  Result<foundry::v1::Player> GetPlayer(const foundry::v1::GetPlayerRequest& req) override {
    foundry::v1::Player resp;
    auto ctx = CallContext();
    grpc::Status s = stub_->GetPlayer(ctx.get(), req, &resp);
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

  Result<foundry::v1::Puzzle> NextPuzzle(const foundry::v1::NextPuzzleRequest& req) override {
    foundry::v1::Puzzle resp;
    auto ctx = CallContext();
    grpc::Status s = stub_->NextPuzzle(ctx.get(), req, &resp);
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

  Result<foundry::v1::Puzzle> PuzzleOfTheDay(
      const foundry::v1::PuzzleOfTheDayRequest& req) override {
    foundry::v1::Puzzle resp;
    auto ctx = CallContext();
    grpc::Status s = stub_->PuzzleOfTheDay(ctx.get(), req, &resp);
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

  Result<foundry::v1::RefitRatingsResponse> RefitRatings(
      const foundry::v1::RefitRatingsRequest& req) override {
    foundry::v1::RefitRatingsResponse resp;
    // It reads every rated puzzle once.
    auto ctx = CallContext(std::chrono::hours(1));
    grpc::Status s = stub_->RefitRatings(ctx.get(), req, &resp);
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

  Result<foundry::v1::ImportResponse> Import(
      const std::vector<foundry::v1::ImportRequest>& items) override {
    foundry::v1::ImportResponse resp;
    auto ctx = CallContext(std::chrono::hours(24));
    auto writer = stub_->ImportPuzzles(ctx.get(), &resp);
    for (const auto& item : items) {
      if (!writer->Write(item)) break;  // the server ended the call; Finish says why
    }
    writer->WritesDone();
    grpc::Status s = writer->Finish();
    if (!s.ok()) return FromRpc(s, address_);
    return resp;
  }

 private:
  std::string address_;
  std::unique_ptr<foundry::v1::PuzzleStore::Stub> stub_;
};

// The store in this process, behind the coordinator's store service.
class LocalSource final : public PuzzleSource {
 public:
  static Result<std::unique_ptr<PuzzleSource>> Open(const std::string& dir,
                                                    const coordinator::RatingSettings& ratings) {
    FOUNDRY_RETURN_IF_ERROR(coordinator::CheckRatingSettings(ratings));
    storage::StoreOptions opts;
    opts.create_if_missing = false;
    auto store = storage::Store::Open(dir, opts);
    if (!store.ok()) return store.status();
    std::unique_ptr<LocalSource> source(new LocalSource());
    source->store_ = std::move(*store);
    auto core = coordinator::Coordinator::Open(source->store_.get(), {}, nullptr);
    if (!core.ok()) return core.status();
    source->core_ = std::move(*core);
    source->service_ =
        std::make_unique<coordinator::PuzzleStoreServiceImpl>(*source->store_, source->core_.get());
    source->service_->set_rating_model(coordinator::MakeRatingModel(ratings));
    return std::unique_ptr<PuzzleSource>(std::move(source));
  }

  Result<foundry::v1::Puzzle> Get(const std::string& id, bool include_solution) override {
    const foundry::v1::GetPuzzleRequest req = GetRequest(id, include_solution);
    foundry::v1::Puzzle p;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->GetPuzzle(nullptr, &req, &p)));
    return p;
  }

  Result<foundry::v1::SampleResponse> Sample(const foundry::v1::SampleRequest& req) override {
    foundry::v1::SampleResponse resp;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->SamplePuzzles(nullptr, &req, &resp)));
    return resp;
  }

  Result<foundry::v1::StatsResponse> Stats() override {
    foundry::v1::StatsRequest req;
    foundry::v1::StatsResponse resp;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->GetStats(nullptr, &req, &resp)));
    return resp;
  }

  Result<foundry::v1::RecordPlayResponse> RecordPlay(const std::string& id, bool solved,
                                                     double seconds) override {
    const foundry::v1::RecordPlayRequest req = PlayRequest(id, solved, seconds);
    foundry::v1::RecordPlayResponse resp;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->RecordPlay(nullptr, &req, &resp)));
    return resp;
  }

  Result<foundry::v1::RecordPlayResponse> Play(const foundry::v1::RecordPlayRequest& req) override {
    foundry::v1::RecordPlayResponse resp;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->RecordPlay(nullptr, &req, &resp)));
    return resp;
  }

  Result<foundry::v1::Player> GetPlayer(const foundry::v1::GetPlayerRequest& req) override {
    foundry::v1::Player resp;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->GetPlayer(nullptr, &req, &resp)));
    return resp;
  }

  Result<foundry::v1::Puzzle> NextPuzzle(const foundry::v1::NextPuzzleRequest& req) override {
    foundry::v1::Puzzle resp;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->NextPuzzle(nullptr, &req, &resp)));
    return resp;
  }

  Result<foundry::v1::Puzzle> PuzzleOfTheDay(
      const foundry::v1::PuzzleOfTheDayRequest& req) override {
    foundry::v1::Puzzle resp;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->PuzzleOfTheDay(nullptr, &req, &resp)));
    return resp;
  }

  Result<foundry::v1::RefitRatingsResponse> RefitRatings(
      const foundry::v1::RefitRatingsRequest& req) override {
    foundry::v1::RefitRatingsResponse resp;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(service_->RefitRatings(nullptr, &req, &resp)));
    return resp;
  }

  Result<foundry::v1::ImportResponse> Import(
      const std::vector<foundry::v1::ImportRequest>& items) override {
    coordinator::ImportSession session;
    std::vector<coordinator::ImportItem> chunk;
    Status status;
    for (const auto& item : items) {
      chunk.push_back({item.line(), item.puzzle()});
      if (chunk.size() == coordinator::kImportChunk) {
        status = core_->ImportChunk(session, std::exchange(chunk, {}));
        if (!status.ok()) break;
      }
    }
    if (status.ok() && !chunk.empty()) status = core_->ImportChunk(session, std::move(chunk));
    core_->FinishImport(session);
    FOUNDRY_RETURN_IF_ERROR(status);
    return coordinator::ToImportResponse(session);
  }

 private:
  LocalSource() = default;
  // Destroyed in reverse: service, coordinator, then the store they use.
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<coordinator::Coordinator> core_;
  std::unique_ptr<coordinator::PuzzleStoreServiceImpl> service_;
};

}  // namespace

void AddSourceFlags(CLI::App& cmd, SourceFlags& f) {
  auto* db = cmd.add_option("--db", f.db, "Use this store directory");
  auto* co = cmd.add_option("--coordinator", f.coordinator, "Use this coordinator (host:port)");
  db->excludes(co);
  co->excludes(db);
}

Result<std::unique_ptr<PuzzleSource>> PuzzleSource::Open(const SourceFlags& flags) {
  if (flags.db.empty() == flags.coordinator.empty()) {
    return Status::InvalidArgument("give exactly one of --db DIR or --coordinator HOST:PORT");
  }
  if (!flags.db.empty()) return LocalSource::Open(flags.db, flags.ratings);
  return std::unique_ptr<PuzzleSource>(new RemoteSource(flags.coordinator));
}

}  // namespace foundry::cli
