#include <fmt/format.h>

#include "common/rpc_status.h"
#include "coordinator/services.h"
#include "puzzles/family.h"
#include "puzzles/puzzle_id.h"

namespace foundry::coordinator {

const AccessControl PuzzleStoreServiceImpl::kOpen;
namespace {

Status CheckFilter(const foundry::v1::PuzzleFilter& f) {
  if (!f.level().empty() && !puzzles::IsLevel(f.level())) {
    return Status::InvalidArgument(
        fmt::format("level must be easy|medium|hard|expert, got '{}'", f.level()));
  }
  if (!f.level().empty() && f.family().empty()) {
    return Status::InvalidArgument("a level filter needs a family filter too");
  }
  return Status::Ok();
}

storage::PuzzleFilter ToStorage(const foundry::v1::PuzzleFilter& f) {
  return {f.family(), f.level(), f.campaign_id()};
}

}  // namespace

grpc::Status PuzzleStoreServiceImpl::GetPuzzle(grpc::ServerContext* ctx,
                                               const foundry::v1::GetPuzzleRequest* req,
                                               foundry::v1::Puzzle* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (!puzzles::LooksLikePuzzleId(req->id())) {
    return ToGrpc(Status::InvalidArgument(fmt::format(
        "'{}' is not a puzzle id (expected a prefix, '-' and 32 hex digits)", req->id())));
  }
  auto p = store_.GetPuzzle(req->id());
  if (!p.ok()) return ToGrpc(p.status());
  *resp = std::move(*p);
  if (!req->include_solution()) resp->clear_solution_json();
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::QueryPuzzles(grpc::ServerContext* ctx,
                                                  const foundry::v1::QueryRequest* req,
                                                  foundry::v1::QueryResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (Status s = CheckFilter(req->filter()); !s.ok()) return ToGrpc(s);
  if (req->page_size() > 1000) {
    return ToGrpc(Status::InvalidArgument(
        fmt::format("page_size must be 1..1000 (0 for 100), got {}", req->page_size())));
  }
  const uint32_t page = req->page_size() == 0 ? 100 : req->page_size();
  auto token = store_.Scan(ToStorage(req->filter()), req->page_token(), page,
                           [&](const foundry::v1::Puzzle& p) {
                             auto* out = resp->add_puzzles();
                             *out = p;
                             if (!req->include_solution()) out->clear_solution_json();
                             return true;
                           });
  if (!token.ok()) return ToGrpc(token.status());
  resp->set_next_page_token(*token);
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::ExportPuzzles(grpc::ServerContext* ctx,
                                                   const foundry::v1::ExportRequest* req,
                                                   grpc::ServerWriter<foundry::v1::Puzzle>* writer) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (Status s = CheckFilter(req->filter()); !s.ok()) return ToGrpc(s);
  bool client_gone = false;
  auto token = store_.Scan(ToStorage(req->filter()), "", req->limit(),
                           [&](const foundry::v1::Puzzle& p) {
                             if (ctx->IsCancelled()) {
                               client_gone = true;
                               return false;
                             }
                             if (req->include_solution()) {
                               client_gone = !writer->Write(p);
                             } else {
                               foundry::v1::Puzzle copy = p;
                               copy.clear_solution_json();
                               client_gone = !writer->Write(copy);
                             }
                             return !client_gone;
                           });
  if (!token.ok()) return ToGrpc(token.status());
  if (client_gone) return grpc::Status(grpc::StatusCode::CANCELLED, "client went away");
  return grpc::Status::OK;
}

}  // namespace foundry::coordinator
