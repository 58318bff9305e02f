#include "console/console_api.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <string_view>

#include <fmt/format.h>

#include "common/quote.h"
#include "common/utf8.h"

namespace foundry::console {

std::string SessionCookie(const httplib::Request& req) {
  const std::string cookies = req.get_header_value("Cookie");
  const std::string key = std::string(kSessionCookie) + "=";
  size_t pos = 0;
  while (pos < cookies.size()) {
    const size_t end = std::min(cookies.find(';', pos), cookies.size());
    std::string part = cookies.substr(pos, end - pos);
    const auto first = part.find_first_not_of(' ');
    if (first != std::string::npos && part.compare(first, key.size(), key) == 0) {
      return part.substr(first + key.size());
    }
    pos = end + 1;
  }
  return "";
}

void SendJson(httplib::Response& res, const nlohmann::json& body, int http_status) {
  res.status = http_status;
  res.set_header("Cache-Control", "no-store");
  // Replace, never throw, on bad UTF-8 from a stored string.
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                  "application/json");
}

void SendError(httplib::Response& res, int http_status, const std::string& message) {
  SendJson(res, {{"error", message}}, http_status);
}

void SendError(httplib::Response& res, const Status& status) {
  int http = 500;
  switch (status.code()) {
    case Status::Code::kInvalidArgument:
    case Status::Code::kOutOfRange:
      http = 400;
      break;
    case Status::Code::kNotFound:
      http = 404;
      break;
    case Status::Code::kPermissionDenied:
      http = 403;
      break;
    case Status::Code::kAlreadyExists:
    case Status::Code::kFailedPrecondition:
    case Status::Code::kAborted:
      http = 409;
      break;
    case Status::Code::kResourceExhausted:
      http = 429;
      break;
    case Status::Code::kUnavailable:
      http = 502;
      break;
    default:
      break;
  }
  SendError(res, http, status.message());
}

Result<nlohmann::json> JsonBody(const httplib::Request& req) {
  nlohmann::json body;
  try {
    body = nlohmann::json::parse(req.body);
  } catch (const nlohmann::json::parse_error& e) {
    // The parser's own words without its "[json.exception.parse_error.101] "
    // tag, e.g. "parse error at line 1, column 12: syntax error while parsing
    // value - invalid string: ill-formed UTF-8 byte; last read: '"<U+00FF>'".
    std::string_view what = e.what();
    if (const size_t tag = what.find("] "); what.starts_with("[json.") && tag != what.npos)
      what.remove_prefix(tag + 2);
    return Status::InvalidArgument(
        fmt::format("the request body is not JSON: {}", QuoteInput(what, 200)));
  }
  if (!body.is_object()) {
    return Status::InvalidArgument("the request body must be a JSON object");
  }
  return body;
}

Result<std::optional<double>> ParseScore(const char* key, const std::string& text) {
  if (text.empty()) return std::optional<double>();
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) {
    return Status::InvalidArgument(
        fmt::format("{} must be a number 0..1, got '{}'", key, QuoteInput(text)));
  }
  return std::optional<double>(v);
}

std::string FieldText(const nlohmann::json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

Result<double> PlaySeconds(const nlohmann::json& body) {
  constexpr double kDay = 86400;  // RecordPlay's bound
  auto it = body.find("seconds");
  if (it == body.end() || it->is_null()) return 0.0;
  const double seconds = it->is_number() ? it->get<double>() : -1;
  if (!(seconds >= 0) || !std::isfinite(seconds)) {
    return Status::InvalidArgument(
        fmt::format("seconds must be a number, 0 or more, got {}", it->dump()));
  }
  return std::min(seconds, kDay);
}

Role ConsoleApi::OwnRole() {
  std::lock_guard lock(role_mu_);
  const auto now = std::chrono::steady_clock::now();
  if (own_role_ == Role::kNone && now - last_probe_ >= kRoleRetry) {
    last_probe_ = now;
    auto role = link.ProbeRole(own_token);
    if (role.ok()) own_role_ = *role;
  }
  return own_role_;
}

std::optional<Session> ConsoleApi::FindSession(const httplib::Request& req) {
  auto s = sessions.Find(SessionCookie(req));
  if (s && !s->logged_in && !login_required && s->role == Role::kNone) {
    s->role = OwnRole();
    sessions.SetRole(s->id, s->role);
  }
  return s;
}

Session ConsoleApi::CookielessReader() {
  return Session{"", "", OwnRole(), own_token, false, std::make_shared<PlayerDesk>()};
}

httplib::Server::Handler Guard(ConsoleApi& api, Need need, ApiHandler handler) {
  return [&api, need, handler = std::move(handler)](const httplib::Request& req,
                                                    httplib::Response& res) {
    // Text headed for the coordinator must be UTF-8 (gRPC would fail the
    // call with an empty message).
    if (!IsValidUtf8(req.path)) return SendError(res, 400, "the path is not valid UTF-8 text");
    for (const auto& [key, value] : req.params) {
      if (!IsValidUtf8(key)) {
        return SendError(res, 400, "a query parameter's name is not valid UTF-8 text");
      }
      if (!IsValidUtf8(value)) {
        return SendError(
            res, 400,
            fmt::format("the query parameter {} is not valid UTF-8 text", QuoteInput(key)));
      }
    }
    auto session = api.FindSession(req);
    const bool read = req.method == "GET" || req.method == "HEAD";
    if (!session && read && !api.login_required) session = api.CookielessReader();
    if (!session) {
      return SendError(res, 401, "no session: load the console's page (or GET /api/session) first");
    }
    if (session->role == Role::kNone) {
      return SendError(res, 401,
                       api.login_required ? "log in with a reader or admin token"
                                          : "the console's own token cannot read the coordinator "
                                            "(or it is unreachable)");
    }
    if (req.method == "POST") {
      // A cross-site form can send the cookie but cannot read the CSRF
      // token, and cannot set a custom header without CORS, which we never
      // grant.
      if (!SessionTable::SameSecret(req.get_header_value("X-CSRF-Token"), session->csrf)) {
        return SendError(res, 403, "missing or wrong CSRF token: reload the page");
      }
      const std::string origin = req.get_header_value("Origin");
      if (!origin.empty() && origin != "null") {
        const auto scheme_end = origin.find("://");
        const std::string origin_host =
            scheme_end == std::string::npos ? origin : origin.substr(scheme_end + 3);
        if (origin_host != req.get_header_value("Host")) {
          return SendError(res, 403, fmt::format("a request from {} may not act here", origin));
        }
      }
    }
    if (need == Need::kAdmin && session->role != Role::kAdmin) {
      return SendError(res, 403, "only an admin may do this: log in with the admin token");
    }
    try {
      handler(req, res, *session);
    } catch (const std::exception& e) {
      SendError(res, 500, fmt::format("internal error: {}", e.what()));
    }
  };
}

}  // namespace foundry::console
