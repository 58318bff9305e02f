// The gRPC services of foundry-coordinator: thin adapters from the wire to
// the Coordinator core and the Store. Each handler converts, calls, converts
// back; no decision is made here.
#pragma once

#include "coordinator/access_control.h"
#include "coordinator/coordinator.h"
#include "coordinator/player_metrics.h"
#include "coordinator/puzzle_wire.h"
#include "coordinator/rating_settings.h"
#include "coordinator/stream_limiter.h"
#include "coordinator/submission_budget.h"
#include "foundry/v1/campaign.grpc.pb.h"
#include "foundry/v1/store.grpc.pb.h"
#include "foundry/v1/worker.grpc.pb.h"

namespace foundry::coordinator {

class CampaignServiceImpl final : public foundry::v1::CampaignService::Service {
 public:
  CampaignServiceImpl(Coordinator& core, const AccessControl& access)
      : core_(core), access_(access) {}
  grpc::Status SubmitCampaign(grpc::ServerContext*, const foundry::v1::SubmitCampaignRequest*,
                              foundry::v1::Campaign*) override;
  grpc::Status GetCampaign(grpc::ServerContext*, const foundry::v1::GetCampaignRequest*,
                           foundry::v1::Campaign*) override;
  grpc::Status ListCampaigns(grpc::ServerContext*, const foundry::v1::ListCampaignsRequest*,
                             foundry::v1::ListCampaignsResponse*) override;
  grpc::Status CancelCampaign(grpc::ServerContext*, const foundry::v1::CancelCampaignRequest*,
                              foundry::v1::Campaign*) override;
  grpc::Status ListFamilies(grpc::ServerContext*, const foundry::v1::ListFamiliesRequest*,
                            foundry::v1::ListFamiliesResponse*) override;
  grpc::Status ListWorkers(grpc::ServerContext*, const foundry::v1::ListWorkersRequest*,
                           foundry::v1::ListWorkersResponse*) override;

 private:
  Coordinator& core_;
  const AccessControl& access_;
};

// Lease and Heartbeat run on gRPC's callback API: they take the core's lock
// for microseconds and never touch the store, so they are answered on the
// thread that received them instead of waiting for a pool thread, which
// SubmitResults calls can hold for as long as a commit takes (Lease p99 at
// 1,000 simulated workers: 93-115 ms before, 13-25 ms after; docs/scale.md).
// SubmitResults stays synchronous (a client stream that may commit).
class WorkerServiceImpl final
    : public foundry::v1::WorkerService::WithCallbackMethod_Lease<
          foundry::v1::WorkerService::WithCallbackMethod_Heartbeat<
              foundry::v1::WorkerService::WithCallbackMethod_ReleaseLeases<
                  foundry::v1::WorkerService::Service>>> {
 public:
  // `submission_bytes`: the SubmissionBudget of all SubmitResults streams;
  // `streams`: how many may be open at once, and their idle end.
  WorkerServiceImpl(Coordinator& core, const AccessControl& access, size_t submission_bytes,
                    const StreamLimits& streams)
      : core_(core), access_(access), submitting_(submission_bytes), streams_(streams) {}
  grpc::ServerUnaryReactor* Lease(grpc::CallbackServerContext*, const foundry::v1::LeaseRequest*,
                                  foundry::v1::LeaseResponse*) override;
  grpc::ServerUnaryReactor* Heartbeat(grpc::CallbackServerContext*,
                                      const foundry::v1::HeartbeatRequest*,
                                      foundry::v1::HeartbeatResponse*) override;
  grpc::Status SubmitResults(grpc::ServerContext*,
                             grpc::ServerReader<foundry::v1::ResultChunk>* reader,
                             foundry::v1::SubmitResponse*) override;
  grpc::ServerUnaryReactor* ReleaseLeases(grpc::CallbackServerContext*,
                                          const foundry::v1::ReleaseRequest*,
                                          foundry::v1::ReleaseResponse*) override;

 private:
  Coordinator& core_;
  const AccessControl& access_;
  SubmissionBudget submitting_;
  StreamLimiter streams_;
};

// A unary call on gRPC's callback API, served on the thread that received
// it: checks `role` with the caller's context, runs `handler` (which returns
// a grpc::Status) and finishes the call.
template <typename Handler>
grpc::ServerUnaryReactor* ServeHere(grpc::CallbackServerContext* ctx, const AccessControl& access,
                                    Role role, Handler&& handler) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  grpc::Status status = access.Check(ctx, role);
  if (status.ok()) status = handler();
  reactor->Finish(status);
  return reactor;
}

// The storage filter of a wire filter. REQUIRES: it passed the service's
// checks (the handlers make them).
storage::PuzzleFilter ToStorageFilter(const foundry::v1::PuzzleFilter& filter);

// Puzzles an import hands to Coordinator::ImportChunk at a time: at most
// this many, and at most kImportChunkBytes of them (a message may hold up
// to kMaxReceiveBytes, so a count alone would not bound the memory).
inline constexpr size_t kImportChunk = 2000;
inline constexpr size_t kImportChunkBytes = 8 << 20;

// What an import did, as the wire reports it.
foundry::v1::ImportResponse ToImportResponse(const ImportSession& session);

class PuzzleStoreServiceImpl final : public foundry::v1::PuzzleStore::Service {
 public:
  // `core` (nullable) serves imports and campaign summaries; `access`
  // defaults to off (in-process use, e.g. fuzzing).
  explicit PuzzleStoreServiceImpl(storage::Store& store, Coordinator* core = nullptr,
                                  const AccessControl& access = kOpen)
      : store_(store), core_(core), access_(access) {}
  // Export streams are admitted by `streams` (nullable: unbounded, for
  // in-process use); it must outlive this service.
  void set_stream_limiter(StreamLimiter* streams) { streams_ = streams; }
  // Rates with `model` (the flags' RatingSettings) instead of the defaults.
  // Call before serving.
  void set_rating_model(storage::RatingModel model) { rating_model_ = std::move(model); }
  // Counts plays and NextPuzzle calls in `metrics` (nullable; must outlive
  // this service). Call before serving.
  void set_player_metrics(PlayerMetrics* metrics) { player_metrics_ = metrics; }
  grpc::Status GetPuzzle(grpc::ServerContext*, const foundry::v1::GetPuzzleRequest*,
                         foundry::v1::Puzzle*) override;
  // GetPuzzle's answer as the wire bytes of a foundry.v1.Puzzle
  // (PresentRecord), without the access check: what the callback service
  // sends as it is and GetPuzzle parses.
  grpc::Status GetPuzzleBytes(const foundry::v1::GetPuzzleRequest& req, std::string* out);
  grpc::Status GetPuzzles(grpc::ServerContext*, const foundry::v1::GetPuzzlesRequest*,
                          foundry::v1::GetPuzzlesResponse*) override;
  grpc::Status QueryPuzzles(grpc::ServerContext*, const foundry::v1::QueryRequest*,
                            foundry::v1::QueryResponse*) override;
  grpc::Status ExportPuzzles(grpc::ServerContext*, const foundry::v1::ExportRequest*,
                             grpc::ServerWriter<foundry::v1::Puzzle>*) override;
  grpc::Status SamplePuzzles(grpc::ServerContext*, const foundry::v1::SampleRequest*,
                             foundry::v1::SampleResponse*) override;
  grpc::Status GetStats(grpc::ServerContext*, const foundry::v1::StatsRequest*,
                        foundry::v1::StatsResponse*) override;
  grpc::Status RecordPlay(grpc::ServerContext*, const foundry::v1::RecordPlayRequest*,
                          foundry::v1::RecordPlayResponse*) override;
  grpc::Status ImportPuzzles(grpc::ServerContext*, grpc::ServerReader<foundry::v1::ImportRequest>*,
                             foundry::v1::ImportResponse*) override;
  // Players (store_players.cc, docs/players.md).
  grpc::Status GetPlayer(grpc::ServerContext*, const foundry::v1::GetPlayerRequest*,
                         foundry::v1::Player*) override;
  grpc::Status NextPuzzle(grpc::ServerContext*, const foundry::v1::NextPuzzleRequest*,
                          foundry::v1::Puzzle*) override;
  grpc::Status PuzzleOfTheDay(grpc::ServerContext*, const foundry::v1::PuzzleOfTheDayRequest*,
                              foundry::v1::Puzzle*) override;
  // Admin only (grade_refit.cc).
  grpc::Status RefitRatings(grpc::ServerContext*, const foundry::v1::RefitRatingsRequest*,
                            foundry::v1::RefitRatingsResponse*) override;
  // Admin only (play_export.cc): streams the recorded plays with a player,
  // admitted by the stream limiter like ExportPuzzles.
  grpc::Status ExportPlays(grpc::ServerContext*, const foundry::v1::ExportPlaysRequest*,
                           grpc::ServerWriter<foundry::v1::PlayRecord>*) override;

 private:
  // RecordPlay with a player_id, an answer or a play_id: judged by the
  // family, rated and recorded atomically by the store.
  grpc::Status RecordPlayerPlay(const foundry::v1::RecordPlayRequest& req,
                                foundry::v1::RecordPlayResponse* resp);

  static const AccessControl kOpen;
  storage::Store& store_;
  Coordinator* core_;
  const AccessControl& access_;
  StreamLimiter* streams_ = nullptr;
  storage::RatingModel rating_model_ = DefaultRatingModel();
  PlayerMetrics* player_metrics_ = nullptr;
};

// The store service as the coordinator's server runs it: the unary reads and
// RecordPlay on gRPC's callback API, so that a call is served on the thread
// that received it (the sync API hands each call to a pool thread, and that
// handoff cost more CPU than the RocksDB read behind a Get); Export and
// Import stay synchronous (long streams). Every call checks access with the
// caller's context and then runs the same handler as PuzzleStoreServiceImpl.
class PuzzleStoreCallbackService final
    : public foundry::v1::PuzzleStore::WithRawCallbackMethod_GetPuzzle<
          foundry::v1::PuzzleStore::WithCallbackMethod_GetPuzzles<
              foundry::v1::PuzzleStore::WithCallbackMethod_QueryPuzzles<
                  foundry::v1::PuzzleStore::WithCallbackMethod_SamplePuzzles<
                      foundry::v1::PuzzleStore::WithCallbackMethod_GetStats<
                          foundry::v1::PuzzleStore::WithCallbackMethod_RecordPlay<
                              foundry::v1::PuzzleStore::Service>>>>>> {
 public:
  // `handlers` is created with access control off (in-process calls); this
  // class applies `access`. Both must outlive it.
  PuzzleStoreCallbackService(PuzzleStoreServiceImpl& handlers, const AccessControl& access)
      : handlers_(handlers), access_(access) {}

  // Raw: the answer is the record's bytes as PresentRecord makes them, with
  // no Puzzle message built and serialised again.
  grpc::ServerUnaryReactor* GetPuzzle(grpc::CallbackServerContext*, const grpc::ByteBuffer* req,
                                      grpc::ByteBuffer* resp) override;
  grpc::ServerUnaryReactor* GetPuzzles(grpc::CallbackServerContext*,
                                       const foundry::v1::GetPuzzlesRequest*,
                                       foundry::v1::GetPuzzlesResponse*) override;
  grpc::ServerUnaryReactor* QueryPuzzles(grpc::CallbackServerContext*,
                                         const foundry::v1::QueryRequest*,
                                         foundry::v1::QueryResponse*) override;
  grpc::ServerUnaryReactor* SamplePuzzles(grpc::CallbackServerContext*,
                                          const foundry::v1::SampleRequest*,
                                          foundry::v1::SampleResponse*) override;
  grpc::ServerUnaryReactor* GetStats(grpc::CallbackServerContext*, const foundry::v1::StatsRequest*,
                                     foundry::v1::StatsResponse*) override;
  grpc::ServerUnaryReactor* RecordPlay(grpc::CallbackServerContext*,
                                       const foundry::v1::RecordPlayRequest*,
                                       foundry::v1::RecordPlayResponse*) override;
  grpc::Status ExportPuzzles(grpc::ServerContext*, const foundry::v1::ExportRequest*,
                             grpc::ServerWriter<foundry::v1::Puzzle>*) override;
  grpc::Status ImportPuzzles(grpc::ServerContext*, grpc::ServerReader<foundry::v1::ImportRequest>*,
                             foundry::v1::ImportResponse*) override;
  // Synchronous: they take the store's player lock.
  grpc::Status GetPlayer(grpc::ServerContext*, const foundry::v1::GetPlayerRequest*,
                         foundry::v1::Player*) override;
  grpc::Status NextPuzzle(grpc::ServerContext*, const foundry::v1::NextPuzzleRequest*,
                          foundry::v1::Puzzle*) override;
  grpc::Status PuzzleOfTheDay(grpc::ServerContext*, const foundry::v1::PuzzleOfTheDayRequest*,
                              foundry::v1::Puzzle*) override;
  grpc::Status RefitRatings(grpc::ServerContext*, const foundry::v1::RefitRatingsRequest*,
                            foundry::v1::RefitRatingsResponse*) override;
  grpc::Status ExportPlays(grpc::ServerContext*, const foundry::v1::ExportPlaysRequest*,
                           grpc::ServerWriter<foundry::v1::PlayRecord>*) override;

 private:
  PuzzleStoreServiceImpl& handlers_;
  const AccessControl& access_;
};

}  // namespace foundry::coordinator
