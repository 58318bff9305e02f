// What the console's route handlers share: the link to the coordinator, the
// poller, the sessions, and the guard every API route goes through.
// Internal to console/.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "common/status.h"
#include "console/coordinator_link.h"
#include "console/session_table.h"
#include "console/store_poller.h"

namespace foundry::console {

struct ConsoleApi {
  ConsoleApi(const CoordinatorLink& link_in, StorePoller& poller_in, std::string own_token_in,
             bool login_required_in, bool https_in)
      : link(link_in),
        poller(poller_in),
        own_token(std::move(own_token_in)),
        login_required(login_required_in),
        https(https_in) {}

  const CoordinatorLink& link;
  StorePoller& poller;
  SessionTable sessions;
  const std::string own_token;  // the console's own coordinator token
  const bool login_required;
  const bool https;

  // The console's own role on the coordinator, probed on first need and
  // again while it is unknown (the coordinator may start after us), at most
  // once per kRoleRetry so that requests do not queue behind probes of an
  // unreachable coordinator.
  Role OwnRole();

  // The request's live session (by its cookie), or nothing. A session that
  // needs no login takes the console's own role once that is known.
  std::optional<Session> FindSession(const httplib::Request& req);

  // A GET (or HEAD) without a session cookie where no login is needed (curl, a
  // script): it reads with the console's own role, as a first visit would,
  // but leaves no session behind, so such requests cannot crowd the table.
  // It has no player and no CSRF token, so it can start no round and POST
  // nothing.
  Session CookielessReader();

 private:
  static constexpr std::chrono::seconds kRoleRetry{2};
  std::mutex role_mu_;
  Role own_role_ = Role::kNone;
  std::chrono::steady_clock::time_point last_probe_{};
};

// The name of the session cookie.
inline constexpr char kSessionCookie[] = "foundry_console";

// Who may call a route.
enum class Need { kReader, kAdmin };

using ApiHandler = std::function<void(const httplib::Request&, httplib::Response&, const Session&)>;

// Wraps `handler`: finds the visitor's session (401 without one that may
// read), checks the role (403), and for POSTs the CSRF header and the
// Origin (403), then runs it. Exceptions become 500 with their message.
httplib::Server::Handler Guard(ConsoleApi& api, Need need, ApiHandler handler);

// The session id in the request's cookie ("" when none).
std::string SessionCookie(const httplib::Request& req);

void SendJson(httplib::Response& res, const nlohmann::json& body, int http_status = 200);
// An error as {"error": message} with the HTTP status matching its code.
void SendError(httplib::Response& res, const Status& status);
void SendError(httplib::Response& res, int http_status, const std::string& message);

// The request's body as a JSON object, or InvalidArgument saying why not.
Result<nlohmann::json> JsonBody(const httplib::Request& req);

// A score bound as typed in a form or a query ("" when not given), or
// InvalidArgument naming `key`. The 0..1 range is the coordinator's to check,
// in its own words.
Result<std::optional<double>> ParseScore(const char* key, const std::string& text);

// A field of a JSON body as text: strings as they are, numbers printed,
// missing or null as "".
std::string FieldText(const nlohmann::json& body, const char* key);

// A play's "seconds": missing or null is 0 (not timed); a longer time than
// a day counts as a day (a page left open overnight still records its
// play). InvalidArgument naming the field for a value that is not a number,
// is negative or is not finite: nothing is recorded.
Result<double> PlaySeconds(const nlohmann::json& body);

// The puzzle page's JSON of a stored record (GET /api/puzzles/ID): its
// family draws the text and the answer prompt. FailedPrecondition for a
// family this build lacks, DataLoss for a record that is not JSON.
Result<nlohmann::json> PuzzleViewJson(const foundry::v1::Puzzle& record);

// Registers the routes of routes_campaigns.cc, routes_puzzles.cc and
// routes_players.cc.
void AddCampaignRoutes(httplib::Server& server, ConsoleApi& api);
void AddPuzzleRoutes(httplib::Server& server, ConsoleApi& api);
void AddPlayerRoutes(httplib::Server& server, ConsoleApi& api);

}  // namespace foundry::console
