#include "coordinator/campaign_spec.h"

#include <fmt/format.h>

#include "common/quote.h"

namespace foundry::coordinator {
namespace {

// Puts a goal field into `raw` unless params already says something else.
Status Fold(std::map<std::string, std::string>& raw, const std::string& key,
            const std::string& value) {
  auto [it, inserted] = raw.emplace(key, value);
  if (!inserted && it->second != value) {
    return Status::InvalidArgument(
        fmt::format("the campaign asks for {} '{}' and params[\"{}\"] '{}': give one of them", key,
                    QuoteInput(value), key, QuoteInput(it->second)));
  }
  return Status::Ok();
}

}  // namespace

Result<puzzles::Params> CampaignParams(const puzzles::Family& family,
                                       const foundry::v1::CampaignSpec& spec) {
  std::map<std::string, std::string> raw(spec.params().begin(), spec.params().end());
  if (!spec.level().empty()) FOUNDRY_RETURN_IF_ERROR(Fold(raw, "level", spec.level()));
  // "{}" prints the shortest text that reads back as the same double.
  if (spec.has_min_score())
    FOUNDRY_RETURN_IF_ERROR(Fold(raw, "min_score", fmt::format("{}", spec.min_score())));
  if (spec.has_max_score())
    FOUNDRY_RETURN_IF_ERROR(Fold(raw, "max_score", fmt::format("{}", spec.max_score())));
  return family.MakeParams(raw);
}

}  // namespace foundry::coordinator
