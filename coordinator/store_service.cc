#include <cmath>

#include <fmt/format.h>

#include "common/quote.h"
#include "common/rpc_status.h"
#include "coordinator/services.h"
#include "coordinator/stream_reads.h"
#include "puzzles/family.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"

namespace foundry::coordinator {

const AccessControl PuzzleStoreServiceImpl::kOpen;

storage::PuzzleFilter ToStorageFilter(const foundry::v1::PuzzleFilter& f) {
  storage::PuzzleFilter out(f.family(), f.level(), f.campaign_id());
  if (f.has_score_range()) out.score = std::make_pair(f.min_score(), f.max_score());
  out.use_observed = f.use_observed();
  out.created_after_unix_ms = f.created_after_unix_ms();
  out.created_before_unix_ms = f.created_before_unix_ms();
  return out;
}

foundry::v1::ImportResponse ToImportResponse(const ImportSession& session) {
  foundry::v1::ImportResponse resp;
  resp.set_stored(session.stored);
  resp.set_duplicates(session.duplicates);
  for (const auto& [line, reason] : session.rejected) {
    auto* r = resp.add_rejected();
    r->set_line(line);
    r->set_reason(reason);
  }
  for (const auto& [family, record] : session.campaigns) resp.add_campaign_ids(record.id());
  return resp;
}

namespace {

constexpr uint32_t kMaxPage = 1000;
// Ids one GetPuzzles may ask for.
constexpr size_t kMaxBatchIds = 1000;
constexpr uint32_t kMaxSample = 1000;
constexpr int kMaxExcluded = 100'000;
constexpr uint64_t kMaxImport = 1'000'000;

Status CheckFilter(const foundry::v1::PuzzleFilter& f) {
  // A misspelt family would otherwise match nothing and look like an empty
  // store; the store holds only families this build knows (imports verify).
  if (!f.family().empty()) {
    if (auto family = puzzles::FindFamily(f.family()); !family.ok()) {
      return Status::InvalidArgument(family.status().message());
    }
  }
  if (!f.level().empty() && !puzzles::IsLevel(f.level())) {
    return Status::InvalidArgument(
        fmt::format("level must be easy|medium|hard|expert, got '{}'", QuoteInput(f.level())));
  }
  if (!f.level().empty() && f.family().empty()) {
    return Status::InvalidArgument("a level filter needs a family filter too");
  }
  if (f.has_score_range()) {
    if (!(f.min_score() >= 0 && f.min_score() <= f.max_score() && f.max_score() <= 1)) {
      return Status::InvalidArgument(
          fmt::format("score range must satisfy 0 <= min_score <= max_score <= 1, got {}..{}",
                      f.min_score(), f.max_score()));
    }
  } else if (f.min_score() != 0 || f.max_score() != 0) {
    return Status::InvalidArgument("min_score/max_score are set but has_score_range is false");
  }
  if (f.use_observed() && !f.has_score_range()) {
    return Status::InvalidArgument("use_observed applies to a score range; set has_score_range");
  }
  if (f.created_after_unix_ms() < 0 || f.created_before_unix_ms() < 0) {
    return Status::InvalidArgument("created_after/created_before must be >= 0 (ms since 1970)");
  }
  if (f.created_after_unix_ms() != 0 && f.created_before_unix_ms() != 0 &&
      f.created_after_unix_ms() > f.created_before_unix_ms()) {
    return Status::InvalidArgument("created_after_unix_ms is later than created_before_unix_ms");
  }
  return Status::Ok();
}

// The puzzle as a reader gets it.
void Present(foundry::v1::Puzzle& p, bool include_solution) {
  if (!include_solution) p.clear_solution_json();
  SetObservedLevel(p.mutable_observed());
}

grpc::Status BadId(const std::string& id) { return ToGrpc(puzzles::CheckPuzzleId(id)); }

}  // namespace

grpc::Status PuzzleStoreServiceImpl::GetPuzzle(grpc::ServerContext* ctx,
                                               const foundry::v1::GetPuzzleRequest* req,
                                               foundry::v1::Puzzle* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  std::string bytes;
  if (grpc::Status s = GetPuzzleBytes(*req, &bytes); !s.ok()) return s;
  if (!resp->ParseFromString(bytes)) {
    return ToGrpc(Status::Internal("puzzle " + req->id() + ": the answer did not parse"));
  }
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::GetPuzzleBytes(const foundry::v1::GetPuzzleRequest& req,
                                                    std::string* out) {
  if (!puzzles::LooksLikePuzzleId(req.id())) return BadId(req.id());
  auto record = store_.GetPuzzleRecord(req.id());
  if (!record.ok()) return ToGrpc(record.status());
  return Reply(PresentRecord(req.id(), record->bytes, record->plays, req.include_solution()), out);
}

grpc::Status PuzzleStoreServiceImpl::GetPuzzles(grpc::ServerContext* ctx,
                                                const foundry::v1::GetPuzzlesRequest* req,
                                                foundry::v1::GetPuzzlesResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (req->ids_size() == 0 || static_cast<size_t>(req->ids_size()) > kMaxBatchIds) {
    return ToGrpc(Status::InvalidArgument(
        fmt::format("ids must hold 1..{} puzzle ids, got {}", kMaxBatchIds, req->ids_size())));
  }
  for (const std::string& id : req->ids()) {
    if (!puzzles::LooksLikePuzzleId(id)) return BadId(id);
  }
  const std::vector<std::string> ids(req->ids().begin(), req->ids().end());
  auto found = store_.GetPuzzles(ids);
  if (!found.ok()) return ToGrpc(found.status());
  for (size_t i = 0; i < ids.size(); ++i) {
    auto& p = (*found)[i];
    if (!p) {
      resp->add_missing(ids[i]);
      continue;
    }
    Present(*p, req->include_solution());
    *resp->add_puzzles() = std::move(*p);
  }
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::QueryPuzzles(grpc::ServerContext* ctx,
                                                  const foundry::v1::QueryRequest* req,
                                                  foundry::v1::QueryResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (Status s = CheckFilter(req->filter()); !s.ok()) return ToGrpc(s);
  if (req->page_size() > kMaxPage) {
    return ToGrpc(Status::InvalidArgument(
        fmt::format("page_size must be 1..{} (0 for 100), got {}", kMaxPage, req->page_size())));
  }
  const uint32_t page = req->page_size() == 0 ? 100 : req->page_size();
  auto token = store_.Scan(ToStorageFilter(req->filter()), req->page_token(), page,
                           [&](const foundry::v1::Puzzle& p) {
                             auto* out = resp->add_puzzles();
                             *out = p;
                             Present(*out, req->include_solution());
                             return true;
                           });
  if (!token.ok()) return ToGrpc(token.status());
  resp->set_next_page_token(*token);
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::ExportPuzzles(
    grpc::ServerContext* ctx, const foundry::v1::ExportRequest* req,
    grpc::ServerWriter<foundry::v1::Puzzle>* writer) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (Status s = CheckFilter(req->filter()); !s.ok()) return ToGrpc(s);
  // Each open stream holds this thread and a store snapshot: bounded per
  // client and in all, and ended when its client stops reading.
  std::unique_ptr<StreamLimiter::Ticket> ticket;
  if (streams_ != nullptr) {
    if (grpc::Status admitted = streams_->Admit(ctx, &ticket); !admitted.ok()) return admitted;
  }
  bool client_gone = false;
  auto token = store_.Scan(ToStorageFilter(req->filter()), "", req->limit(),
                           [&](const foundry::v1::Puzzle& p) {
                             if (ctx->IsCancelled()) {
                               client_gone = true;
                               return false;
                             }
                             foundry::v1::Puzzle copy = p;
                             Present(copy, req->include_solution());
                             client_gone = !writer->Write(copy);
                             if (ticket) ticket->Progress();
                             return !client_gone;
                           });
  if (!token.ok()) return ToGrpc(token.status());
  return StreamEndStatus(streams_, ticket.get(), client_gone);
}

grpc::Status PuzzleStoreServiceImpl::SamplePuzzles(grpc::ServerContext* ctx,
                                                   const foundry::v1::SampleRequest* req,
                                                   foundry::v1::SampleResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (Status s = CheckFilter(req->filter()); !s.ok()) return ToGrpc(s);
  if (req->count() < 1 || req->count() > kMaxSample) {
    return ToGrpc(Status::InvalidArgument(
        fmt::format("count must be 1..{}, got {}", kMaxSample, req->count())));
  }
  if (req->exclude_ids_size() > kMaxExcluded) {
    return ToGrpc(Status::InvalidArgument(
        fmt::format("at most {} exclude_ids, got {}", kMaxExcluded, req->exclude_ids_size())));
  }
  std::unordered_set<std::string> exclude(req->exclude_ids().begin(), req->exclude_ids().end());
  auto sample = store_.Sample(ToStorageFilter(req->filter()), req->count(), exclude, req->seed());
  if (!sample.ok()) return ToGrpc(sample.status());
  for (auto& p : *sample) {
    Present(p, req->include_solution());
    *resp->add_puzzles() = std::move(p);
  }
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::GetStats(grpc::ServerContext* ctx,
                                              const foundry::v1::StatsRequest*,
                                              foundry::v1::StatsResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  uint64_t total = 0;
  for (const auto& [group, n] : store_.LevelCounts()) {
    auto* level = resp->add_levels();
    level->set_family(group.first);
    level->set_level(group.second);
    level->set_puzzles(n);
    total += n;
  }
  resp->set_puzzles(total);
  resp->set_plays_recorded(store_.PlaysRecorded());
  if (core_ != nullptr) {
    for (auto& c : core_->ListCampaigns(/*running_only=*/false))
      *resp->add_campaigns() = std::move(c);
  }
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::RecordPlay(grpc::ServerContext* ctx,
                                                const foundry::v1::RecordPlayRequest* req,
                                                foundry::v1::RecordPlayResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  if (!puzzles::LooksLikePuzzleId(req->id())) return BadId(req->id());
  if (!std::isfinite(req->seconds()) || req->seconds() < 0 || req->seconds() > 86400) {
    return ToGrpc(
        Status::InvalidArgument(fmt::format("seconds must be 0..86400, got {}", req->seconds())));
  }
  if (!req->player_id().empty() || req->has_answer() || !req->play_id().empty()) {
    return RecordPlayerPlay(*req, resp);
  }
  auto result = store_.RecordPlay(req->id(), req->solved(), req->seconds());
  if (!result.ok()) return ToGrpc(result.status());
  *resp = std::move(*result);
  resp->set_solved(req->solved());  // claimed: judged stays false
  if (player_metrics_ != nullptr) player_metrics_->Played(*resp);
  SetObservedLevel(resp->mutable_observed());
  return grpc::Status::OK;
}

grpc::Status PuzzleStoreServiceImpl::ImportPuzzles(
    grpc::ServerContext* ctx, grpc::ServerReader<foundry::v1::ImportRequest>* reader,
    foundry::v1::ImportResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kAdmin); !denied.ok()) return denied;
  if (core_ == nullptr) {
    return ToGrpc(Status::FailedPrecondition("this server does not accept imports"));
  }
  ImportSession session;
  std::vector<ImportItem> chunk;
  size_t chunk_bytes = 0;
  foundry::v1::ImportRequest req;
  uint64_t received = 0;
  Status status;
  StreamReads<foundry::v1::ImportRequest> reads(reader);
  while (status.ok() && reads.Next(&req)) {
    if (++received > kMaxImport) {
      status = Status::InvalidArgument(
          fmt::format("an import holds at most {} puzzles; split the file", kMaxImport));
      break;
    }
    chunk_bytes += req.ByteSizeLong();
    chunk.push_back(ImportItem{req.line(), std::move(*req.mutable_puzzle())});
    if (chunk.size() == kImportChunk || chunk_bytes >= kImportChunkBytes) {
      status = core_->ImportChunk(session, std::exchange(chunk, {}));
      chunk_bytes = 0;
    }
  }
  // After an unreadable message, what came before it is imported (as a
  // client resending the corrected stream would have it) and the error says
  // where the stream broke.
  if (status.ok() && !chunk.empty()) status = core_->ImportChunk(session, std::move(chunk));
  if (status.ok() && !reads.status().ok()) {
    status = Status::InvalidArgument(
        fmt::format("{}; the import stopped there: {} before it taken in, none after it",
                    reads.status().message(),
                    received == 0   ? std::string("no message")
                    : received == 1 ? std::string("the message")
                                    : fmt::format("the {} messages", received)));
  }
  core_->FinishImport(session);
  if (!status.ok()) return ToGrpc(status);
  *resp = ToImportResponse(session);
  return grpc::Status::OK;
}

// ---------------------------------------------------------------- callback API

grpc::ServerUnaryReactor* PuzzleStoreCallbackService::GetPuzzle(grpc::CallbackServerContext* ctx,
                                                                const grpc::ByteBuffer* req,
                                                                grpc::ByteBuffer* resp) {
  return ServeHere(ctx, access_, Role::kReader, [&] {
    foundry::v1::GetPuzzleRequest request;
    grpc::ByteBuffer copy(*req);  // Deserialize consumes its buffer; this shares the slices
    if (!grpc::SerializationTraits<foundry::v1::GetPuzzleRequest>::Deserialize(&copy, &request)
             .ok()) {
      return ToGrpc(Status::InvalidArgument("the request is not a foundry.v1.GetPuzzleRequest"));
    }
    std::string bytes;
    grpc::Status status = handlers_.GetPuzzleBytes(request, &bytes);
    if (status.ok()) {
      grpc::Slice slice(bytes);
      *resp = grpc::ByteBuffer(&slice, 1);
    }
    return status;
  });
}

grpc::ServerUnaryReactor* PuzzleStoreCallbackService::GetPuzzles(
    grpc::CallbackServerContext* ctx, const foundry::v1::GetPuzzlesRequest* req,
    foundry::v1::GetPuzzlesResponse* resp) {
  return ServeHere(ctx, access_, Role::kReader,
                   [&] { return handlers_.GetPuzzles(nullptr, req, resp); });
}

grpc::ServerUnaryReactor* PuzzleStoreCallbackService::QueryPuzzles(
    grpc::CallbackServerContext* ctx, const foundry::v1::QueryRequest* req,
    foundry::v1::QueryResponse* resp) {
  return ServeHere(ctx, access_, Role::kReader,
                   [&] { return handlers_.QueryPuzzles(nullptr, req, resp); });
}

grpc::ServerUnaryReactor* PuzzleStoreCallbackService::SamplePuzzles(
    grpc::CallbackServerContext* ctx, const foundry::v1::SampleRequest* req,
    foundry::v1::SampleResponse* resp) {
  return ServeHere(ctx, access_, Role::kReader,
                   [&] { return handlers_.SamplePuzzles(nullptr, req, resp); });
}

grpc::ServerUnaryReactor* PuzzleStoreCallbackService::GetStats(grpc::CallbackServerContext* ctx,
                                                               const foundry::v1::StatsRequest* req,
                                                               foundry::v1::StatsResponse* resp) {
  return ServeHere(ctx, access_, Role::kReader,
                   [&] { return handlers_.GetStats(nullptr, req, resp); });
}

grpc::ServerUnaryReactor* PuzzleStoreCallbackService::RecordPlay(
    grpc::CallbackServerContext* ctx, const foundry::v1::RecordPlayRequest* req,
    foundry::v1::RecordPlayResponse* resp) {
  return ServeHere(ctx, access_, Role::kReader,
                   [&] { return handlers_.RecordPlay(nullptr, req, resp); });
}

grpc::Status PuzzleStoreCallbackService::ExportPuzzles(
    grpc::ServerContext* ctx, const foundry::v1::ExportRequest* req,
    grpc::ServerWriter<foundry::v1::Puzzle>* writer) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  return handlers_.ExportPuzzles(ctx, req, writer);
}

grpc::Status PuzzleStoreCallbackService::ImportPuzzles(
    grpc::ServerContext* ctx, grpc::ServerReader<foundry::v1::ImportRequest>* reader,
    foundry::v1::ImportResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kAdmin); !denied.ok()) return denied;
  return handlers_.ImportPuzzles(ctx, reader, resp);
}

}  // namespace foundry::coordinator
