#include "common/rpc_status.h"
#include "coordinator/services.h"
#include "puzzles/registry.h"

namespace foundry::coordinator {

grpc::Status CampaignServiceImpl::SubmitCampaign(grpc::ServerContext* ctx,
                                                 const foundry::v1::SubmitCampaignRequest* req,
                                                 foundry::v1::Campaign* resp) {
  if (auto denied = access_.Check(ctx, Role::kAdmin); !denied.ok()) return denied;
  return Reply(core_.SubmitCampaign(req->spec()), resp);
}

grpc::Status CampaignServiceImpl::GetCampaign(grpc::ServerContext* ctx,
                                              const foundry::v1::GetCampaignRequest* req,
                                              foundry::v1::Campaign* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  return Reply(core_.GetCampaign(req->campaign_id()), resp);
}

grpc::Status CampaignServiceImpl::ListCampaigns(grpc::ServerContext* ctx,
                                                const foundry::v1::ListCampaignsRequest* req,
                                                foundry::v1::ListCampaignsResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  for (auto& c : core_.ListCampaigns(req->running_only())) *resp->add_campaigns() = std::move(c);
  return grpc::Status::OK;
}

grpc::Status CampaignServiceImpl::CancelCampaign(grpc::ServerContext* ctx,
                                                 const foundry::v1::CancelCampaignRequest* req,
                                                 foundry::v1::Campaign* resp) {
  if (auto denied = access_.Check(ctx, Role::kAdmin); !denied.ok()) return denied;
  return Reply(core_.CancelCampaign(req->campaign_id()), resp);
}

grpc::Status CampaignServiceImpl::ListFamilies(grpc::ServerContext* ctx,
                                               const foundry::v1::ListFamiliesRequest*,
                                               foundry::v1::ListFamiliesResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  for (const puzzles::Family* f : puzzles::AllFamilies()) {
    auto* info = resp->add_families();
    info->set_name(std::string(f->name()));
    info->set_id_prefix(std::string(f->id_prefix()));
    info->set_summary(std::string(f->summary()));
    for (const auto& spec : f->param_specs()) {
      auto* p = info->add_params();
      p->set_key(spec.key);
      p->set_default_value(spec.DefaultText());
      p->set_allowed(spec.AllowedText());
      p->set_help(spec.help);
    }
  }
  for (const auto& g : puzzles::GoalKeys()) {
    auto* p = resp->add_goal_params();
    p->set_key(std::string(g.key));
    p->set_default_value(std::string(g.default_text));
    p->set_allowed(std::string(g.allowed));
    p->set_help(std::string(g.help));
  }
  return grpc::Status::OK;
}

grpc::Status CampaignServiceImpl::ListWorkers(grpc::ServerContext* ctx,
                                              const foundry::v1::ListWorkersRequest*,
                                              foundry::v1::ListWorkersResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kReader); !denied.ok()) return denied;
  *resp = core_.ListWorkers();
  return grpc::Status::OK;
}

}  // namespace foundry::coordinator
