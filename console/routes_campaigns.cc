// Routes of the overview, campaigns, families and workers pages.
#include <charconv>

#include <fmt/format.h>

#include "common/campaign_bounds.h"
#include "common/quote.h"
#include "common/unix_time.h"
#include "console/api_json.h"
#include "console/console_api.h"

namespace foundry::console {
namespace {

// Parses a whole number field; "" gives `fallback`.
template <typename Int>
Result<Int> IntField(const nlohmann::json& body, const char* key, Int fallback, Int lo, Int hi) {
  const std::string text = FieldText(body, key);
  if (text.empty()) return fallback;
  Int value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) {
    return Status::InvalidArgument(
        fmt::format("{} must be a whole number {}..{}, got '{}'", key, lo, hi, QuoteInput(text)));
  }
  return value;
}

// The New campaign form as a CampaignSpec. Only the shape is checked here;
// the coordinator validates the rest and its messages are shown unchanged.
Result<foundry::v1::CampaignSpec> SpecFromForm(const nlohmann::json& body) {
  foundry::v1::CampaignSpec spec;
  spec.set_family(FieldText(body, "family"));
  if (spec.family().empty()) return Status::InvalidArgument("choose a family");
  if (FieldText(body, "count").empty()) {
    return Status::InvalidArgument("count: how many puzzles to store (1..100000000)");
  }
  auto count = IntField<uint64_t>(body, "count", 0, 1, kMaxCampaignCount);
  if (!count.ok()) return count.status();
  auto seed = IntField<uint64_t>(body, "seed", 1, 0, UINT64_MAX);
  if (!seed.ok()) return seed.status();
  auto priority = IntField<int32_t>(body, "priority", 0, 0, kMaxPriority);
  if (!priority.ok()) return priority.status();
  spec.set_count(*count);
  spec.set_seed(*seed);
  spec.set_priority(*priority);
  const std::string level = FieldText(body, "level");
  spec.set_level(level == "any" ? "" : level);
  auto min_score = ParseScore("min_score", FieldText(body, "min_score"));
  if (!min_score.ok()) return min_score.status();
  auto max_score = ParseScore("max_score", FieldText(body, "max_score"));
  if (!max_score.ok()) return max_score.status();
  if (*min_score) spec.set_min_score(**min_score);
  if (*max_score) spec.set_max_score(**max_score);
  if (auto params = body.find("params"); params != body.end() && !params->is_null()) {
    if (!params->is_object())
      return Status::InvalidArgument("params must be an object of key: value");
    for (const auto& [key, value] : params->items()) {
      const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
      if (!text.empty()) (*spec.mutable_params())[key] = text;
    }
  }
  return spec;
}

void Overview(ConsoleApi& api, httplib::Response& res) {
  const PollSnapshot snap = api.poller.Snapshot();
  SendJson(res, OverviewJson(snap, NowUnixMs(), api.poller.interval().count()));
}

void ListCampaigns(ConsoleApi& api, httplib::Response& res, const Session& s) {
  foundry::v1::ListCampaignsResponse out;
  grpc::Status st = api.link.campaigns().ListCampaigns(api.link.Context(s.token).get(), {}, &out);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  nlohmann::json list = nlohmann::json::array();
  for (const auto& c : out.campaigns()) list.push_back(CampaignJson(c));
  SendJson(res, {{"campaigns", std::move(list)}});
}

void GetCampaign(ConsoleApi& api, const std::string& id, httplib::Response& res, const Session& s) {
  foundry::v1::GetCampaignRequest req;
  req.set_campaign_id(id);
  foundry::v1::Campaign c;
  grpc::Status st = api.link.campaigns().GetCampaign(api.link.Context(s.token).get(), req, &c);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  nlohmann::json history = nlohmann::json::array();
  for (const auto& p : api.poller.CampaignHistory(id)) {
    history.push_back({{"t_ms", p.t_ms}, {"stored", p.stored}, {"rate", p.rate}});
  }
  SendJson(res, {{"campaign", CampaignJson(c)}, {"history", std::move(history)}});
}

void Submit(ConsoleApi& api, const httplib::Request& http_req, httplib::Response& res,
            const Session& s) {
  auto body = JsonBody(http_req);
  if (!body.ok()) return SendError(res, body.status());
  auto spec = SpecFromForm(*body);
  if (!spec.ok()) return SendError(res, spec.status());
  foundry::v1::SubmitCampaignRequest req;
  *req.mutable_spec() = std::move(*spec);
  foundry::v1::Campaign c;
  grpc::Status st = api.link.campaigns().SubmitCampaign(api.link.Context(s.token).get(), req, &c);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  SendJson(res, {{"campaign", CampaignJson(c)}});
}

void Cancel(ConsoleApi& api, const std::string& id, httplib::Response& res, const Session& s) {
  foundry::v1::CancelCampaignRequest req;
  req.set_campaign_id(id);
  foundry::v1::Campaign c;
  grpc::Status st = api.link.campaigns().CancelCampaign(api.link.Context(s.token).get(), req, &c);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  SendJson(res, {{"campaign", CampaignJson(c)}});
}

void Families(ConsoleApi& api, httplib::Response& res, const Session& s) {
  foundry::v1::ListFamiliesResponse out;
  grpc::Status st = api.link.campaigns().ListFamilies(api.link.Context(s.token).get(), {}, &out);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  nlohmann::json families = nlohmann::json::array();
  for (const auto& f : out.families()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : f.params()) params.push_back(ParamJson(p));
    families.push_back(
        {{"name", f.name()}, {"summary", f.summary()}, {"params", std::move(params)}});
  }
  nlohmann::json goal = nlohmann::json::array();
  for (const auto& p : out.goal_params()) goal.push_back(ParamJson(p));
  SendJson(res, {{"families", std::move(families)}, {"goal_params", std::move(goal)}});
}

void Workers(ConsoleApi& api, httplib::Response& res, const Session& s) {
  foundry::v1::ListWorkersResponse out;
  grpc::Status st = api.link.campaigns().ListWorkers(api.link.Context(s.token).get(), {}, &out);
  if (!st.ok()) return SendError(res, LinkError(st, api.link.address()));
  const int64_t now = NowUnixMs();
  nlohmann::json workers = nlohmann::json::array();
  for (const auto& w : out.workers()) workers.push_back(WorkerJson(w, now));
  SendJson(res, {{"workers", std::move(workers)},
                 {"generation_fingerprint", out.generation_fingerprint()}});
}

}  // namespace

void AddCampaignRoutes(httplib::Server& server, ConsoleApi& api) {
  using Req = httplib::Request;
  using Res = httplib::Response;
  server.Get("/api/overview",
             Guard(api, Need::kReader,
                   [&api](const Req&, Res& res, const Session&) { Overview(api, res); }));
  server.Get("/api/campaigns",
             Guard(api, Need::kReader,
                   [&api](const Req&, Res& res, const Session& s) { ListCampaigns(api, res, s); }));
  server.Get(R"(/api/campaigns/([^/]+))",
             Guard(api, Need::kReader, [&api](const Req& req, Res& res, const Session& s) {
               GetCampaign(api, req.matches[1], res, s);
             }));
  server.Post("/api/campaigns",
              Guard(api, Need::kAdmin, [&api](const Req& req, Res& res, const Session& s) {
                Submit(api, req, res, s);
              }));
  server.Post(R"(/api/campaigns/([^/]+)/cancel)",
              Guard(api, Need::kAdmin, [&api](const Req& req, Res& res, const Session& s) {
                Cancel(api, req.matches[1], res, s);
              }));
  server.Get("/api/families",
             Guard(api, Need::kReader,
                   [&api](const Req&, Res& res, const Session& s) { Families(api, res, s); }));
  server.Get("/api/workers",
             Guard(api, Need::kReader,
                   [&api](const Req&, Res& res, const Session& s) { Workers(api, res, s); }));
}

}  // namespace foundry::console
