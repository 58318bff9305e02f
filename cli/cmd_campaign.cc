// foundry campaign submit|status|watch|list|cancel: campaigns on a coordinator.
#include <thread>

#include <fmt/format.h>
#include <google/protobuf/util/json_util.h>

#include "cli/client.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/puzzle_json.h"
#include "foundry/v1/campaign.grpc.pb.h"
#include "foundry/v1/store.grpc.pb.h"

namespace foundry::cli {
namespace {

using CampaignStub = foundry::v1::CampaignService::Stub;

struct CampaignFlags {
  std::string coordinator;
  std::string id;
  GenerationFlags gen;
  bool watch = false;
  bool json = false;
};

void PrintCampaign(const foundry::v1::Campaign& c, bool json) {
  if (json) {
    std::string out;
    google::protobuf::util::JsonPrintOptions opts;
    (void)google::protobuf::util::MessageToJsonString(c, &out, opts);
    fmt::print("{}\n", out);
    return;
  }
  fmt::print("{}  {:<14} {:<10} {:>12}/{:<12} {}\n", c.id(), c.spec().family(),
             StateName(c.state()), Grouped(c.counters().stored()), Grouped(c.spec().count()),
             c.message());
}

// Polls the campaign until it leaves RUNNING, drawing progress; prints the
// summary and one example puzzle. Exit 0 when done.
int Watch(const std::string& address, const std::string& id) {
  auto stub = foundry::v1::CampaignService::NewStub(Connect(address));
  Progress progress(stderr);
  const auto start = std::chrono::steady_clock::now();
  foundry::v1::Campaign c;
  for (;;) {
    foundry::v1::GetCampaignRequest req;
    req.set_campaign_id(id);
    auto got = Unary(*stub, &CampaignStub::GetCampaign, req, address);
    if (!got.ok()) return Fail(got.status().message());
    c = std::move(*got);
    progress.Update(c);
    if (c.state() != foundry::v1::CAMPAIGN_STATE_RUNNING) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  progress.Finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ReportCampaignEnd(c, seconds);

  auto store = foundry::v1::PuzzleStore::NewStub(Connect(address));
  foundry::v1::QueryRequest q;
  q.mutable_filter()->set_campaign_id(id);
  q.set_page_size(1);
  foundry::v1::QueryResponse page;
  auto ctx = CallContext();
  if (store->QueryPuzzles(ctx.get(), q, &page).ok() && page.puzzles_size() > 0) {
    fmt::print("\nExample puzzle:\n{}", PuzzleToText(page.puzzles(0)));
  }
  return c.state() == foundry::v1::CAMPAIGN_STATE_DONE ? 0 : 1;
}

int Submit(const CampaignFlags& f) {
  auto spec = ToSpec(f.gen);
  if (!spec.ok()) return Fail(spec.status().message());
  auto stub = foundry::v1::CampaignService::NewStub(Connect(f.coordinator));
  foundry::v1::SubmitCampaignRequest req;
  *req.mutable_spec() = *spec;
  auto c = Unary(*stub, &CampaignStub::SubmitCampaign, req, f.coordinator);
  if (!c.ok()) return Fail(c.status().message());
  fmt::print("submitted campaign {}\n", c->id());
  std::fflush(stdout);
  return f.watch ? Watch(f.coordinator, c->id()) : 0;
}

int ShowStatus(const CampaignFlags& f) {
  auto stub = foundry::v1::CampaignService::NewStub(Connect(f.coordinator));
  foundry::v1::GetCampaignRequest req;
  req.set_campaign_id(f.id);
  auto c = Unary(*stub, &CampaignStub::GetCampaign, req, f.coordinator);
  if (!c.ok()) return Fail(c.status().message());
  if (f.json) {
    PrintCampaign(*c, true);
  } else {
    fmt::print("{}\n", CampaignSummary(*c, 0));
  }
  return 0;
}

int List(const CampaignFlags& f) {
  auto stub = foundry::v1::CampaignService::NewStub(Connect(f.coordinator));
  auto resp = Unary(*stub, &CampaignStub::ListCampaigns, foundry::v1::ListCampaignsRequest(),
                    f.coordinator);
  if (!resp.ok()) return Fail(resp.status().message());
  for (const auto& c : resp->campaigns()) PrintCampaign(c, f.json);
  // As kubectl does: stdout (the list) stays empty, and a person at the
  // terminal is told so on stderr instead of left to guess.
  if (resp->campaigns().empty() && !f.json) {
    fmt::print(stderr, "no campaigns on {}\n", f.coordinator);
  }
  return 0;
}

int Cancel(const CampaignFlags& f) {
  auto stub = foundry::v1::CampaignService::NewStub(Connect(f.coordinator));
  foundry::v1::CancelCampaignRequest req;
  req.set_campaign_id(f.id);
  auto c = Unary(*stub, &CampaignStub::CancelCampaign, req, f.coordinator);
  if (!c.ok()) return Fail(c.status().message());
  fmt::print("{}\n", CampaignSummary(*c, 0));
  return 0;
}

}  // namespace

void AddCampaignCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<CampaignFlags>();
  CLI::App* campaign = app.add_subcommand("campaign", "Campaigns on a coordinator");
  campaign->require_subcommand(1);

  CLI::App* submit = campaign->add_subcommand("submit", "Start a campaign");
  submit->add_option("--coordinator", f->coordinator, "Coordinator address (host:port)")
      ->check(DialAddress())
      ->required();
  AddGenerationFlags(*submit, f->gen);
  submit->add_flag("--watch", f->watch, "Show progress until it ends");
  submit->callback([f, &exit_code] { exit_code = Submit(*f); });

  CLI::App* status = campaign->add_subcommand("status", "Show one campaign");
  status->add_option("--coordinator", f->coordinator, "Coordinator address (host:port)")
      ->check(DialAddress())
      ->required();
  status->add_option("id", f->id, "Campaign id")->required();
  status->add_flag("--json", f->json, "As JSON");
  status->callback([f, &exit_code] { exit_code = ShowStatus(*f); });

  CLI::App* watch = campaign->add_subcommand("watch", "Show a campaign's progress until it ends");
  watch->add_option("--coordinator", f->coordinator, "Coordinator address (host:port)")
      ->check(DialAddress())
      ->required();
  watch->add_option("id", f->id, "Campaign id")->required();
  watch->callback([f, &exit_code] { exit_code = Watch(f->coordinator, f->id); });

  CLI::App* list = campaign->add_subcommand("list", "List campaigns, newest first");
  list->add_option("--coordinator", f->coordinator, "Coordinator address (host:port)")
      ->check(DialAddress())
      ->required();
  list->add_flag("--json", f->json, "One JSON object per line");
  list->callback([f, &exit_code] { exit_code = List(*f); });

  CLI::App* cancel = campaign->add_subcommand("cancel", "Stop a campaign; what it stored stays");
  cancel->add_option("--coordinator", f->coordinator, "Coordinator address (host:port)")
      ->check(DialAddress())
      ->required();
  cancel->add_option("id", f->id, "Campaign id")->required();
  cancel->callback([f, &exit_code] { exit_code = Cancel(*f); });
}

}  // namespace foundry::cli
