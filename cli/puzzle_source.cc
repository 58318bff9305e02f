#include "cli/puzzle_source.h"

#include <fmt/format.h>

#include "cli/client.h"
#include "cli/commands.h"
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

class RemoteSource final : public PuzzleSource {
 public:
  explicit RemoteSource(std::string address)
      : address_(std::move(address)), stub_(foundry::v1::PuzzleStore::NewStub(Connect(address_))) {}

  Result<foundry::v1::Puzzle> Get(const std::string& id, bool include_solution) override {
    return Unary(*stub_, &Stub::GetPuzzle, GetRequest(id, include_solution), address_);
  }

  Result<foundry::v1::SampleResponse> Sample(const foundry::v1::SampleRequest& req) override {
    return Unary(*stub_, &Stub::SamplePuzzles, req, address_);
  }

  Result<foundry::v1::StatsResponse> Stats() override {
    return Unary(*stub_, &Stub::GetStats, foundry::v1::StatsRequest(), address_);
  }

  Result<foundry::v1::RecordPlayResponse> RecordPlay(const std::string& id, bool solved,
                                                     double seconds) override {
    return Unary(*stub_, &Stub::RecordPlay, PlayRequest(id, solved, seconds), address_);
  }

  Result<foundry::v1::RecordPlayResponse> Play(const foundry::v1::RecordPlayRequest& req) override {
    return Unary(*stub_, &Stub::RecordPlay, req, address_);
  }

  Result<foundry::v1::Player> GetPlayer(const foundry::v1::GetPlayerRequest& req) override {
    return Unary(*stub_, &Stub::GetPlayer, req, address_);
  }

  Result<foundry::v1::Puzzle> NextPuzzle(const foundry::v1::NextPuzzleRequest& req) override {
    return Unary(*stub_, &Stub::NextPuzzle, req, address_);
  }

  Result<foundry::v1::Puzzle> PuzzleOfTheDay(
      const foundry::v1::PuzzleOfTheDayRequest& req) override {
    return Unary(*stub_, &Stub::PuzzleOfTheDay, req, address_);
  }

  Result<foundry::v1::RefitRatingsResponse> RefitRatings(
      const foundry::v1::RefitRatingsRequest& req) override {
    // It reads every rated puzzle once.
    return Unary(*stub_, &Stub::RefitRatings, req, address_, std::chrono::hours(1));
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
    if (!s.ok()) return RpcFailure(s, address_);
    return resp;
  }

 private:
  using Stub = foundry::v1::PuzzleStore::Stub;
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
    return Call(&Service::GetPuzzle, GetRequest(id, include_solution));
  }

  Result<foundry::v1::SampleResponse> Sample(const foundry::v1::SampleRequest& req) override {
    return Call(&Service::SamplePuzzles, req);
  }

  Result<foundry::v1::StatsResponse> Stats() override {
    return Call(&Service::GetStats, foundry::v1::StatsRequest());
  }

  Result<foundry::v1::RecordPlayResponse> RecordPlay(const std::string& id, bool solved,
                                                     double seconds) override {
    return Call(&Service::RecordPlay, PlayRequest(id, solved, seconds));
  }

  Result<foundry::v1::RecordPlayResponse> Play(const foundry::v1::RecordPlayRequest& req) override {
    return Call(&Service::RecordPlay, req);
  }

  Result<foundry::v1::Player> GetPlayer(const foundry::v1::GetPlayerRequest& req) override {
    return Call(&Service::GetPlayer, req);
  }

  Result<foundry::v1::Puzzle> NextPuzzle(const foundry::v1::NextPuzzleRequest& req) override {
    return Call(&Service::NextPuzzle, req);
  }

  Result<foundry::v1::Puzzle> PuzzleOfTheDay(
      const foundry::v1::PuzzleOfTheDayRequest& req) override {
    return Call(&Service::PuzzleOfTheDay, req);
  }

  Result<foundry::v1::RefitRatingsResponse> RefitRatings(
      const foundry::v1::RefitRatingsRequest& req) override {
    return Call(&Service::RefitRatings, req);
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
  using Service = coordinator::PuzzleStoreServiceImpl;

  LocalSource() = default;

  // One call of the in-process service's handler `method` with `request`.
  template <typename Request, typename Response>
  Result<Response> Call(grpc::Status (Service::*method)(grpc::ServerContext*, const Request*,
                                                        Response*),
                        const Request& request) {
    Response response;
    FOUNDRY_RETURN_IF_ERROR(FromGrpc(((*service_).*method)(nullptr, &request, &response)));
    return response;
  }

  // Destroyed in reverse: service, coordinator, then the store they use.
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<coordinator::Coordinator> core_;
  std::unique_ptr<coordinator::PuzzleStoreServiceImpl> service_;
};

}  // namespace

void AddSourceFlags(CLI::App& cmd, SourceFlags& f) {
  auto* db = cmd.add_option("--db", f.db, "Use this store directory");
  auto* co = cmd.add_option("--coordinator", f.coordinator, "Use this coordinator (host:port)")
                 ->check(DialAddress());
  db->excludes(co);
  co->excludes(db);
}

Result<std::unique_ptr<PuzzleSource>> PuzzleSource::Open(const SourceFlags& flags) {
  const std::string db = DbOrDefault(flags.db, flags.coordinator);
  if (db.empty() == flags.coordinator.empty()) {
    return Status::InvalidArgument("give " + NoStoreGiven());
  }
  if (!db.empty()) return LocalSource::Open(db, flags.ratings);
  return std::unique_ptr<PuzzleSource>(new RemoteSource(flags.coordinator));
}

}  // namespace foundry::cli
