// The parameters a CampaignSpec asks for, as one raw key -> text map: the
// family's params plus the generic goal fields (level, min_score,
// max_score), which the CLI and every other client may give either way.
// Shared by the coordinator (SubmitCampaign) and the CLI (a typo fails before
// anything starts), so both say the same thing about the same spec.
//
// Thread safety: a pure function.
#pragma once

#include <map>
#include <string>

#include "common/status.h"
#include "foundry/v1/campaign.pb.h"
#include "puzzles/family.h"

namespace foundry::coordinator {

// spec.params with spec.level, spec.min_score and spec.max_score folded in,
// validated by `family` (MakeParams). Errors (InvalidArgument): a goal field
// that contradicts the same key in params, and whatever MakeParams says.
Result<puzzles::Params> CampaignParams(const puzzles::Family& family,
                                       const foundry::v1::CampaignSpec& spec);

}  // namespace foundry::coordinator
