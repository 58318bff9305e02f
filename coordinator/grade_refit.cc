#include "coordinator/grade_refit.h"

#include <chrono>
#include <map>
#include <vector>

#include "common/rpc_status.h"
#include "coordinator/services.h"
#include "ratings/grade_fit.h"

namespace foundry::coordinator {
namespace {

void Fill(const storage::GradeMapping& m, bool fitted, uint64_t puzzles, int64_t when,
          foundry::v1::GradeMapping& out) {
  out.set_center(m.center);
  out.set_per_score(m.per_score);
  out.set_fitted(fitted);
  out.set_puzzles(puzzles);
  out.set_fitted_unix_ms(when);
}

}  // namespace

Result<foundry::v1::RefitRatingsResponse> RefitGradeMappings(
    storage::Store& store, const storage::GradeMapping& default_mapping,
    const RefitOptions& options) {
  std::map<std::string, std::vector<ratings::GradePoint>> points;
  for (const auto& [family, count] : store.PuzzleCounts()) {
    if (count > 0) points[family];
  }
  FOUNDRY_RETURN_IF_ERROR(
      store.ForEachRatedPuzzle(options.min_judged_plays, [&](const storage::RatedPuzzle& p) {
        points[p.family].push_back({p.score, p.rating.rating});
      }));
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  foundry::v1::RefitRatingsResponse resp;
  std::map<std::string, storage::FittedGradeMapping> refitted;
  for (const auto& [family, fam_points] : points) {
    auto stored = store.GetGradeMapping(family);
    if (!stored.ok()) return stored.status();
    const storage::GradeMapping before = stored->has_value() ? (*stored)->mapping : default_mapping;
    const ratings::GradeLine before_line{before.center, before.per_score};
    foundry::v1::FamilyRefit* out = resp.add_families();
    out->set_family(family);
    out->set_puzzles(fam_points.size());
    if (stored->has_value()) {
      Fill(before, true, (*stored)->puzzles, (*stored)->fitted_unix_ms, *out->mutable_before());
    } else {
      Fill(before, false, 0, 0, *out->mutable_before());
    }
    out->set_mean_abs_error_before(ratings::MeanAbsoluteError(fam_points, before_line));
    if (fam_points.empty() || fam_points.size() < options.min_puzzles) {
      *out->mutable_after() = out->before();
      out->set_mean_abs_error_after(out->mean_abs_error_before());
      continue;
    }
    const ratings::GradeLine line = ratings::FitGradeLine(fam_points, before_line);
    const storage::FittedGradeMapping fitted{{line.center, line.per_score}, fam_points.size(), now};
    refitted[family] = fitted;
    Fill(fitted.mapping, true, fitted.puzzles, now, *out->mutable_after());
    out->set_mean_abs_error_after(ratings::MeanAbsoluteError(fam_points, line));
    out->set_refitted(true);
  }
  if (!refitted.empty()) FOUNDRY_RETURN_IF_ERROR(store.PutGradeMappings(refitted));
  return resp;
}

grpc::Status PuzzleStoreServiceImpl::RefitRatings(grpc::ServerContext* ctx,
                                                  const foundry::v1::RefitRatingsRequest* req,
                                                  foundry::v1::RefitRatingsResponse* resp) {
  if (auto denied = access_.Check(ctx, Role::kAdmin); !denied.ok()) return denied;
  RefitOptions options;
  if (req->min_judged_plays() != 0) options.min_judged_plays = req->min_judged_plays();
  if (req->min_puzzles() != 0) options.min_puzzles = req->min_puzzles();
  auto done = RefitGradeMappings(store_, rating_model_.grade, options);
  if (!done.ok()) return ToGrpc(done.status());
  *resp = std::move(*done);
  return grpc::Status::OK;
}

}  // namespace foundry::coordinator
