// libFuzzer target: the request handlers' decoding. The first byte picks a
// request type, the rest is parsed as that protobuf message and handed to
// the coordinator core or the store service, as a gRPC handler would, over a
// real RocksDB store in a temporary directory. Nothing may crash.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "coordinator/coordinator.h"
#include "coordinator/services.h"
#include "storage/store.h"

namespace {

struct World {
  std::string dir;
  std::unique_ptr<foundry::storage::Store> store;
  std::unique_ptr<foundry::coordinator::Coordinator> core;
  std::unique_ptr<foundry::coordinator::PuzzleStoreServiceImpl> store_service;

  World() {
    dir = (std::filesystem::temp_directory_path() / ("foundry-fuzz-" + std::to_string(getpid())))
              .string();
    std::filesystem::remove_all(dir);
    store = foundry::storage::Store::Open(dir, {}).value();
    core = foundry::coordinator::Coordinator::Open(store.get(), {}, nullptr).value();
    store_service = std::make_unique<foundry::coordinator::PuzzleStoreServiceImpl>(*store);
    // One running campaign so that leases and submissions reach deep code.
    foundry::v1::CampaignSpec spec;
    spec.set_family("secret-number");
    spec.set_count(1000000);
    spec.set_job_size(16);
    (void)core->SubmitCampaign(spec);
  }
  ~World() {
    core.reset();
    store.reset();
    std::filesystem::remove_all(dir);
  }
};

World& TheWorld() {
  static World world;
  return world;
}

template <typename M>
bool Decode(const uint8_t* data, size_t size, M& m) {
  return m.ParseFromArray(data, static_cast<int>(size));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  World& w = TheWorld();
  const uint8_t kind = data[0] % 9;
  ++data;
  --size;
  switch (kind) {
    case 0: {
      foundry::v1::SubmitCampaignRequest r;
      // Keep accepted campaigns small: the fuzzer is not here to fill disks.
      if (Decode(data, size, r) && r.spec().count() <= 1000) (void)w.core->SubmitCampaign(r.spec());
      break;
    }
    case 1: {
      foundry::v1::LeaseRequest r;
      if (Decode(data, size, r)) (void)w.core->Lease(r);
      break;
    }
    case 2: {
      foundry::v1::HeartbeatRequest r;
      if (Decode(data, size, r)) (void)w.core->Heartbeat(r);
      break;
    }
    case 3: {
      // A chunk for a real lease when the fuzzer leaves lease_id empty.
      foundry::v1::ResultChunk chunk;
      if (!Decode(data, size, chunk)) break;
      if (chunk.lease_id().empty()) {
        foundry::v1::LeaseRequest lr;
        lr.set_worker_id("fuzz");
        auto lease = w.core->Lease(lr);
        if (lease.ok() && lease->has_job()) chunk.set_lease_id(lease->job().lease_id());
      }
      (void)w.core->SubmitResults({chunk});
      break;
    }
    case 4: {
      foundry::v1::GetPuzzleRequest r;
      foundry::v1::Puzzle p;
      if (Decode(data, size, r)) (void)w.store_service->GetPuzzle(nullptr, &r, &p);
      break;
    }
    case 5: {
      foundry::v1::QueryRequest r;
      foundry::v1::QueryResponse resp;
      if (Decode(data, size, r)) (void)w.store_service->QueryPuzzles(nullptr, &r, &resp);
      break;
    }
    case 7: {
      foundry::v1::SampleRequest r;
      foundry::v1::SampleResponse resp;
      if (Decode(data, size, r)) (void)w.store_service->SamplePuzzles(nullptr, &r, &resp);
      break;
    }
    case 8: {
      foundry::v1::RecordPlayRequest r;
      foundry::v1::RecordPlayResponse resp;
      if (Decode(data, size, r)) (void)w.store_service->RecordPlay(nullptr, &r, &resp);
      break;
    }
    case 6: {
      foundry::v1::GetCampaignRequest r;
      if (Decode(data, size, r)) {
        (void)w.core->GetCampaign(r.campaign_id());
        (void)w.core->CancelCampaign(r.campaign_id() + "x");
      }
      break;
    }
  }
  return 0;
}
