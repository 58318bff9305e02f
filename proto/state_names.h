// The lower-case words the CLI and the console show for the API's enums.
#pragma once

#include "foundry/v1/campaign.pb.h"

namespace foundry {

// "running", "done", "cancelled", "exhausted", "failed" or "unknown".
inline const char* CampaignStateName(foundry::v1::CampaignState state) {
  switch (state) {
    case foundry::v1::CAMPAIGN_STATE_RUNNING:
      return "running";
    case foundry::v1::CAMPAIGN_STATE_DONE:
      return "done";
    case foundry::v1::CAMPAIGN_STATE_CANCELLED:
      return "cancelled";
    case foundry::v1::CAMPAIGN_STATE_EXHAUSTED:
      return "exhausted";
    case foundry::v1::CAMPAIGN_STATE_FAILED:
      return "failed";
    default:
      return "unknown";
  }
}

// "probation", "trusted", "quarantined" or "unknown".
inline const char* WorkerStateName(foundry::v1::WorkerState state) {
  switch (state) {
    case foundry::v1::WORKER_STATE_PROBATION:
      return "probation";
    case foundry::v1::WORKER_STATE_TRUSTED:
      return "trusted";
    case foundry::v1::WORKER_STATE_QUARANTINED:
      return "quarantined";
    default:
      return "unknown";
  }
}

}  // namespace foundry
