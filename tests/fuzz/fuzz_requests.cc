// libFuzzer target: every request message of every gRPC service in
// proto/foundry/v1/. The first byte picks a request type, the rest is parsed
// as that protobuf message and handed to what serves it, over a real RocksDB
// store in a temporary directory that holds a running campaign and one
// puzzle of every family. Nothing may crash.
//
// How each RPC is reached (tests/fuzz/README.md lists them all):
// - the synchronous unary handlers (CampaignService, PuzzleStore's unary
//   calls and players, StoreAdmin) are called as gRPC calls them, with a
//   null ServerContext (in-process: access control allows it);
// - the worker calls run on gRPC's callback API (their handler only wraps
//   the core call in ServeHere, which needs a live call), and the streams
//   (SubmitResults, ImportPuzzles, ExportPuzzles) need a live reader or
//   writer: those go to the Coordinator and Store methods the handlers
//   delegate to, with the handlers' own checks.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "coordinator/backup_service.h"
#include "coordinator/coordinator.h"
#include "coordinator/services.h"
#include "puzzles/puzzle_id.h"
#include "puzzles/registry.h"
#include "storage/store.h"

namespace {

namespace v1 = foundry::v1;
using foundry::coordinator::CampaignServiceImpl;
using foundry::coordinator::ImportItem;
using foundry::coordinator::ImportSession;
using foundry::coordinator::PuzzleStoreServiceImpl;
using foundry::coordinator::StoreAdminServiceImpl;

// Inputs between two fresh worlds: accepted campaigns, imports and plays
// accumulate, and a store that only grows would slow the run down.
constexpr uint64_t kInputsPerWorld = 20000;

struct World {
  std::string dir;
  foundry::coordinator::AccessControl open_access;  // off: in-process calls
  std::unique_ptr<foundry::storage::Store> store;
  std::unique_ptr<foundry::coordinator::Coordinator> core;
  std::unique_ptr<foundry::coordinator::PuzzleStoreServiceImpl> store_service;
  std::unique_ptr<foundry::coordinator::CampaignServiceImpl> campaigns;
  std::unique_ptr<foundry::coordinator::StoreAdminServiceImpl> admin;
  std::vector<std::string> ids;  // one stored puzzle of every family

  World() {
    dir = (std::filesystem::temp_directory_path() / ("foundry-fuzz-" + std::to_string(getpid())))
              .string();
    std::filesystem::remove_all(dir);
    store = foundry::storage::Store::Open(dir + "/db", {}).value();
    core = foundry::coordinator::Coordinator::Open(store.get(), {}, nullptr).value();
    store_service =
        std::make_unique<foundry::coordinator::PuzzleStoreServiceImpl>(*store, core.get());
    campaigns = std::make_unique<foundry::coordinator::CampaignServiceImpl>(*core, open_access);
    admin = std::make_unique<foundry::coordinator::StoreAdminServiceImpl>(
        *store, open_access, foundry::coordinator::BackupSettings{});
    // One running campaign so that leases and submissions reach deep code.
    v1::CampaignSpec spec;
    spec.set_family("secret-number");
    spec.set_count(1000000);
    spec.set_job_size(16);
    (void)core->SubmitCampaign(spec);
    StorePuzzles();
  }
  ~World() {
    admin.reset();
    campaigns.reset();
    store_service.reset();
    core.reset();
    store.reset();
    std::filesystem::remove_all(dir);
  }

  // One puzzle of every family, generated with its default parameters and
  // imported, so that reads, plays and answers reach every family's code.
  void StorePuzzles() {
    ImportSession session;
    std::vector<ImportItem> items;
    for (const auto* family : foundry::puzzles::AllFamilies()) {
      const auto params = family->MakeParams(std::map<std::string, std::string>{}).value();
      foundry::puzzles::Rng rng(7);
      for (int attempt = 0; attempt < 1000; ++attempt) {
        auto candidate = family->Generate(rng, params);
        const auto* accepted = std::get_if<foundry::puzzles::Accepted>(&candidate);
        if (accepted == nullptr) continue;
        ImportItem& item = items.emplace_back();
        item.line = items.size();
        item.puzzle.set_family(std::string(family->name()));
        item.puzzle.set_puzzle_json(accepted->puzzle.dump());
        item.puzzle.set_solution_json(accepted->solution.dump());
        ids.push_back(
            foundry::puzzles::PuzzleId(*family, family->CanonicalBytes(accepted->puzzle)));
        break;
      }
    }
    if (!core->ImportChunk(session, std::move(items)).ok() || session.stored != ids.size()) {
      __builtin_trap();
    }
    core->FinishImport(session);
  }

  // A stored puzzle's id for a short `id`: the fuzzer cannot guess 32 hex
  // digits, and without a real id every read stops at "not found".
  std::string RealId(const std::string& id) const {
    if (id.size() > 2) return id;
    const size_t pick = id.empty() ? 0 : static_cast<uint8_t>(id[0]) + id.size();
    return ids[pick % ids.size()];
  }

  // A lease of the running campaign, or "" when none is offered.
  std::string AnyLease() {
    v1::LeaseRequest lr;
    lr.set_worker_id("fuzz");
    auto lease = core->Lease(lr);
    return lease.ok() && lease->has_job() ? lease->job().lease_id() : "";
  }
};

World* world = nullptr;

World& TheWorld() {
  static uint64_t inputs = 0;
  if (world == nullptr) {
    // Most inputs hold strings that are not UTF-8; protobuf logs each one.
    google::protobuf::SetLogHandler(nullptr);
    world = new World();
    // Registered after RocksDB's own statics (made while the first world
    // opened its store), so it runs before they are destroyed at exit.
    std::atexit([] { delete std::exchange(world, nullptr); });
  } else if (++inputs % kInputsPerWorld == 0) {
    delete world;
    world = new World();
  }
  return *world;
}

template <typename M>
bool Decode(const uint8_t* data, size_t size, M& m) {
  return m.ParseFromArray(data, static_cast<int>(size));
}

// Parses the input as the request of unary handler `method` and, when it
// parses and `admit` (which may adjust it) agrees, calls `method` as gRPC
// calls it, with a null ServerContext.
template <typename Service, typename Request, typename Response, typename Admit>
void CallUnary(Service& service,
               grpc::Status (Service::*method)(grpc::ServerContext*, const Request*, Response*),
               const uint8_t* data, size_t size, Admit admit) {
  Request r;
  if (!Decode(data, size, r) || !admit(r)) return;
  Response resp;
  (void)(service.*method)(nullptr, &r, &resp);
}

template <typename Service, typename Request, typename Response>
void CallUnary(Service& service,
               grpc::Status (Service::*method)(grpc::ServerContext*, const Request*, Response*),
               const uint8_t* data, size_t size) {
  CallUnary(service, method, data, size, [](const Request&) { return true; });
}

}  // namespace

// The request types, by the first byte. 0..8 keep the numbers the corpus
// was first written with.
enum Kind : uint8_t {
  kSubmitCampaign,
  kLease,
  kHeartbeat,
  kResultChunk,
  kGetPuzzle,
  kQuery,
  kGetCampaign,
  kSample,
  kRecordPlay,
  kListCampaigns,
  kCancelCampaign,
  kListFamilies,
  kListWorkers,
  kRelease,
  kGetPuzzles,
  kExport,
  kStats,
  kImport,
  kGetPlayer,
  kNextPuzzle,
  kBackupStore,
  kKinds
};

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  World& w = TheWorld();
  const uint8_t kind = data[0] % kKinds;
  ++data;
  --size;
  // A read of a short id reads a stored puzzle (RealId).
  const auto with_real_id = [&](auto& r) {
    r.set_id(w.RealId(r.id()));
    return true;
  };
  switch (kind) {
    case kSubmitCampaign:
      // Keep accepted campaigns small: the fuzzer is not here to fill disks.
      CallUnary(*w.campaigns, &CampaignServiceImpl::SubmitCampaign, data, size,
                [](const v1::SubmitCampaignRequest& r) { return r.spec().count() <= 1000; });
      break;
    case kLease: {
      v1::LeaseRequest r;
      if (Decode(data, size, r)) (void)w.core->Lease(r);
      break;
    }
    case kHeartbeat: {
      v1::HeartbeatRequest r;
      if (!Decode(data, size, r)) break;
      if (r.lease_id().empty()) r.set_lease_id(w.AnyLease());
      (void)w.core->Heartbeat(r);
      break;
    }
    case kResultChunk: {
      // A chunk for a real lease when the fuzzer leaves lease_id empty.
      v1::ResultChunk chunk;
      if (!Decode(data, size, chunk)) break;
      if (chunk.lease_id().empty()) chunk.set_lease_id(w.AnyLease());
      (void)w.core->SubmitResults({chunk});
      break;
    }
    case kGetPuzzle:
      CallUnary(*w.store_service, &PuzzleStoreServiceImpl::GetPuzzle, data, size, with_real_id);
      break;
    case kQuery:
      CallUnary(*w.store_service, &PuzzleStoreServiceImpl::QueryPuzzles, data, size);
      break;
    case kGetCampaign:
      CallUnary(*w.campaigns, &CampaignServiceImpl::GetCampaign, data, size);
      break;
    case kSample:
      CallUnary(*w.store_service, &PuzzleStoreServiceImpl::SamplePuzzles, data, size);
      break;
    case kRecordPlay:
      CallUnary(*w.store_service, &PuzzleStoreServiceImpl::RecordPlay, data, size, with_real_id);
      break;
    case kListCampaigns:
      CallUnary(*w.campaigns, &CampaignServiceImpl::ListCampaigns, data, size);
      break;
    case kCancelCampaign:
      CallUnary(*w.campaigns, &CampaignServiceImpl::CancelCampaign, data, size);
      break;
    case kListFamilies:
      CallUnary(*w.campaigns, &CampaignServiceImpl::ListFamilies, data, size);
      break;
    case kListWorkers:
      CallUnary(*w.campaigns, &CampaignServiceImpl::ListWorkers, data, size);
      break;
    case kRelease: {
      v1::ReleaseRequest r;
      if (!Decode(data, size, r)) break;
      if (r.lease_ids_size() == 0) r.add_lease_ids(w.AnyLease());
      (void)w.core->ReleaseLeases(r);
      break;
    }
    case kGetPuzzles:
      CallUnary(*w.store_service, &PuzzleStoreServiceImpl::GetPuzzles, data, size,
                [&](v1::GetPuzzlesRequest& r) {
                  for (auto& id : *r.mutable_ids()) id = w.RealId(id);
                  return true;
                });
      break;
    case kExport: {
      // ExportPuzzles writes to a live stream. Its filter checks are
      // QueryPuzzles' (CheckFilter); a filter they pass is scanned as the
      // handler scans it, every record read.
      v1::ExportRequest r;
      if (!Decode(data, size, r)) break;
      v1::QueryRequest q;
      *q.mutable_filter() = r.filter();
      q.set_page_size(static_cast<uint32_t>(std::min<uint64_t>(r.limit(), 1000)));
      q.set_include_solution(r.include_solution());
      v1::QueryResponse resp;
      if (!w.store_service->QueryPuzzles(nullptr, &q, &resp).ok()) break;
      (void)w.store->Scan(foundry::coordinator::ToStorageFilter(r.filter()), "", r.limit(),
                          [](const v1::Puzzle& p) { return !p.id().empty(); });
      break;
    }
    case kStats:
      CallUnary(*w.store_service, &PuzzleStoreServiceImpl::GetStats, data, size);
      break;
    case kImport: {
      // ImportPuzzles reads a stream; this is its body for a one-item stream.
      v1::ImportRequest r;
      if (!Decode(data, size, r)) break;
      ImportSession session;
      std::vector<ImportItem> items;
      items.push_back(ImportItem{r.line(), std::move(*r.mutable_puzzle())});
      (void)w.core->ImportChunk(session, std::move(items));
      w.core->FinishImport(session);
      (void)foundry::coordinator::ToImportResponse(session);
      break;
    }
    case kGetPlayer:
      CallUnary(*w.store_service, &PuzzleStoreServiceImpl::GetPlayer, data, size);
      break;
    case kNextPuzzle:
      CallUnary(*w.store_service, &PuzzleStoreServiceImpl::NextPuzzle, data, size);
      break;
    case kBackupStore: {
      // The handler's checks see the fuzzer's directory; an absolute one is
      // moved into the world's own directory (the fuzzer must not write
      // anywhere else), and `keep` bounded so that backups do not pile up.
      CallUnary(*w.admin, &StoreAdminServiceImpl::BackupStore, data, size,
                [&](v1::BackupStoreRequest& r) {
                  if (std::filesystem::path(r.backup_dir()).is_absolute()) {
                    r.set_backup_dir(w.dir + "/backups");
                    r.set_keep(std::clamp<uint32_t>(r.keep(), 1, 2));
                  }
                  return true;
                });
      break;
    }
  }
  return 0;
}
