#include <optional>

#include <fmt/format.h>

#include "common/rpc_status.h"
#include "coordinator/services.h"

namespace foundry::coordinator {

grpc::ServerUnaryReactor* WorkerServiceImpl::Lease(grpc::CallbackServerContext* ctx,
                                                   const foundry::v1::LeaseRequest* req,
                                                   foundry::v1::LeaseResponse* resp) {
  return ServeHere(ctx, access_, Role::kWorker, [&] { return Reply(core_.Lease(*req), resp); });
}

grpc::ServerUnaryReactor* WorkerServiceImpl::Heartbeat(grpc::CallbackServerContext* ctx,
                                                       const foundry::v1::HeartbeatRequest* req,
                                                       foundry::v1::HeartbeatResponse* resp) {
  return ServeHere(ctx, access_, Role::kWorker, [&] { return Reply(core_.Heartbeat(*req), resp); });
}

grpc::ServerUnaryReactor* WorkerServiceImpl::ReleaseLeases(grpc::CallbackServerContext* ctx,
                                                           const foundry::v1::ReleaseRequest* req,
                                                           foundry::v1::ReleaseResponse* resp) {
  return ServeHere(ctx, access_, Role::kWorker,
                   [&] { return Reply(core_.ReleaseLeases(*req), resp); });
}

grpc::Status WorkerServiceImpl::SubmitResults(grpc::ServerContext* ctx,
                                              grpc::ServerReader<foundry::v1::ResultChunk>* reader,
                                              foundry::v1::SubmitResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kWorker); !denied.ok()) return denied;
  // Each open stream holds a thread: bounded in all, and ended when idle.
  std::unique_ptr<StreamLimiter::Ticket> ticket;
  if (grpc::Status admitted = streams_.Admit(ctx, &ticket); !admitted.ok()) return admitted;
  std::vector<foundry::v1::ResultChunk> chunks;
  foundry::v1::ResultChunk chunk;
  // Known from the first chunk's lease: a stream on a lease that does not
  // exist, or past what its job could need, is not read to its end (each
  // chunk may weigh up to 16 MiB).
  std::optional<SubmissionBound> bound;
  // What this stream holds of the budget of all streams, until its job is
  // settled.
  struct Held {
    SubmissionBudget& budget;
    size_t bytes = 0;
    ~Held() { budget.Give(bytes); }
  } held{submitting_};
  while (reader->Read(&chunk)) {
    if (!bound) {
      auto b = core_.SubmissionBoundFor(chunk.lease_id());
      if (!b.ok()) return ToGrpc(b.status());
      bound = *b;
    }
    const size_t size = chunk.ByteSizeLong();
    if (chunks.size() >= bound->chunks || held.bytes + size > bound->bytes) {
      return grpc::Status(
          grpc::StatusCode::INVALID_ARGUMENT,
          fmt::format("submission on lease '{}' holds more than its job can produce: at most {} "
                      "chunks and {} bytes, got {} chunks and {} bytes so far",
                      chunk.lease_id(), bound->chunks, bound->bytes, chunks.size() + 1,
                      held.bytes + size));
    }
    if (!submitting_.Take(size)) {
      return grpc::Status(
          grpc::StatusCode::RESOURCE_EXHAUSTED,
          fmt::format("the coordinator holds {} bytes of submissions, its limit is {}: send "
                      "this one again later",
                      submitting_.held(), submitting_.limit()));
    }
    held.bytes += size;
    chunks.push_back(std::move(chunk));
    chunk.Clear();
    ticket->Progress();
  }
  if (ticket->idle_ended() || ctx->IsCancelled()) {
    return StreamEndStatus(&streams_, ticket.get(), /*client_gone=*/true);
  }
  // Read whole: what follows is the coordinator's own work (a commit may
  // wait on the disk), not the client's idleness.
  ticket.reset();
  return Reply(core_.SubmitResults(std::move(chunks)), resp);
}

}  // namespace foundry::coordinator
