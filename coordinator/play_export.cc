// ExportPlays (docs/players.md): every recorded play with a player, streamed
// from one store snapshot under the same stream limits as ExportPuzzles.
// Admin only: the records name players and what they typed.
#include <fmt/format.h>

#include "common/rpc_status.h"
#include "coordinator/player_limits.h"
#include "coordinator/services.h"
#include "puzzles/registry.h"

namespace foundry::coordinator {
namespace {

Status CheckExportPlays(const foundry::v1::ExportPlaysRequest& req) {
  if (!req.family().empty()) {
    if (auto f = puzzles::FindFamily(req.family()); !f.ok()) {
      return Status::InvalidArgument(f.status().message());
    }
  }
  const std::string& player = req.player_id();
  if (player.size() > kMaxPlayerIdBytes) {
    return Status::InvalidArgument(fmt::format("player_id must be at most {} bytes, got {}",
                                               kMaxPlayerIdBytes, player.size()));
  }
  if (player.find('\0') != std::string::npos) {
    return Status::InvalidArgument("player_id must not contain a NUL byte");
  }
  return Status::Ok();
}

}  // namespace

grpc::Status PuzzleStoreServiceImpl::ExportPlays(
    grpc::ServerContext* ctx, const foundry::v1::ExportPlaysRequest* req,
    grpc::ServerWriter<foundry::v1::PlayRecord>* writer) {
  if (auto denied = access_.Check(ctx, Role::kAdmin); !denied.ok()) return denied;
  if (Status s = CheckExportPlays(*req); !s.ok()) return ToGrpc(s);
  // As ExportPuzzles: each open stream holds this thread and a snapshot.
  std::unique_ptr<StreamLimiter::Ticket> ticket;
  if (streams_ != nullptr && ctx != nullptr) {
    if (grpc::Status admitted = streams_->Admit(ctx, &ticket); !admitted.ok()) return admitted;
  }
  bool client_gone = false;
  Status done = store_.ScanPlays(req->player_id(), req->family(), req->limit(),
                                 [&](const foundry::v1::PlayRecord& r) {
                                   if (ctx != nullptr && ctx->IsCancelled()) {
                                     client_gone = true;
                                     return false;
                                   }
                                   client_gone = !writer->Write(r);
                                   if (ticket) ticket->Progress();
                                   return !client_gone;
                                 });
  if (!done.ok()) return ToGrpc(done);
  return StreamEndStatus(streams_, ticket.get(), client_gone);
}

grpc::Status PuzzleStoreCallbackService::ExportPlays(
    grpc::ServerContext* ctx, const foundry::v1::ExportPlaysRequest* req,
    grpc::ServerWriter<foundry::v1::PlayRecord>* writer) {
  if (auto denied = access_.Check(ctx, Role::kAdmin); !denied.ok()) return denied;
  return handlers_.ExportPlays(ctx, req, writer);
}

}  // namespace foundry::coordinator
