// The console API's JSON shapes (docs/console-api.md), made from the
// coordinator's messages. Pure functions: no I/O.
#pragma once

#include <nlohmann/json.hpp>

#include "console/player_desk.h"
#include "console/store_poller.h"
#include "foundry/v1/campaign.pb.h"
#include "foundry/v1/puzzle.pb.h"
#include "foundry/v1/store.pb.h"
#include "proto/state_names.h"

namespace foundry::console {

// A campaign with its counters and derived rates (acceptance, duplicates,
// ETA).
nlohmann::json CampaignJson(const foundry::v1::Campaign& c);

// A worker silent for this long is shown as gone (workers heartbeat every
// few seconds while they hold a lease and poll for work when idle).
constexpr int64_t kWorkerAliveMs = 30'000;

// A worker; `alive` when not quarantined and seen within kWorkerAliveMs.
nlohmann::json WorkerJson(const foundry::v1::WorkerInfo& w, int64_t now_ms);

// One row of a browse page (no statement, no solution).
nlohmann::json PuzzleRowJson(const foundry::v1::Puzzle& p);

// Plays and observed difficulty of a puzzle.
nlohmann::json PlaysJson(const foundry::v1::PlayStats& plays);
nlohmann::json ObservedJson(const foundry::v1::ObservedDifficulty& observed);

// Parameter specs, ListFamilies style.
nlohmann::json ParamJson(const foundry::v1::ParamInfo& p);

// A JSON object stored as text ("{}" when it is not one): parameters and
// difficulty details are shown, never trusted.
nlohmann::json ObjectOrEmpty(const std::string& text);

// The overview page: history, running campaigns, workers and store totals.
nlohmann::json OverviewJson(const PollSnapshot& snap, int64_t now_ms, int64_t interval_ms);

// A player's figures in one family (GetPlayer), with the solve rate.
nlohmann::json PlayerJson(const foundry::v1::Player& p);

// The history entry of a round's recorded play: the player's rating before
// is the rating after minus the change (the store's figures, not the
// round's, which may be stale after plays elsewhere).
PlayEntry PlayEntryFrom(const Round& round, const foundry::v1::RecordPlayResponse& play,
                        double seconds, int64_t now_ms);

}  // namespace foundry::console
