#include "console/console_server.h"

#include <fstream>

#include <fmt/format.h>
#include <httplib.h>

#include "common/listen_address.h"
#include "common/quote.h"
#include "console/api_json.h"
#include "console/assets.h"
#include "console/console_api.h"

namespace foundry::console {
namespace {

// Longest token a login takes.
constexpr size_t kMaxTokenLength = 1024;

constexpr char kContentSecurityPolicy[] =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

// The library's server used for its routing alone: the gate hands it one
// complete request at a time on a GateStream.
class Router final : public httplib::Server {
 public:
  // Answers the request on `stream`; true when the connection may go on.
  bool Serve(httplib::Stream& stream) {
    bool closed = false;
    return process_request(stream, /*close_connection=*/false, closed, nullptr) && !closed;
  }
};

bool Readable(const std::string& path) { return std::ifstream(path).good(); }

std::string CookieHeader(const std::string& id, bool https) {
  return fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict{}", kSessionCookie, id,
                     https ? "; Secure" : "");
}

// The visitor's session, made on first visit when no login is needed (with
// the console's own role); with a login, a session without a role until
// the visitor logs in.
Session SessionFor(ConsoleApi& api, const httplib::Request& req, httplib::Response& res) {
  if (auto s = api.FindSession(req)) return *s;
  Session s = api.login_required ? api.sessions.Create(Role::kNone, "", false)
                                 : api.sessions.Create(api.OwnRole(), api.own_token, false);
  res.set_header("Set-Cookie", CookieHeader(s.id, api.https));
  return s;
}

void AddSessionRoutes(httplib::Server& server, ConsoleApi& api) {
  server.Get("/api/session", [&api](const httplib::Request& req, httplib::Response& res) {
    const Session s = SessionFor(api, req, res);
    // When the console's own token cannot read (none given to a coordinator
    // that wants one), a visitor can still log in with theirs.
    SendJson(res, {{"role", RoleName(s.role)},
                   {"login_required", api.login_required || s.role == Role::kNone},
                   {"logged_in", s.logged_in},
                   {"player", s.desk ? s.desk->player() : ""},
                   {"csrf", s.csrf},
                   {"coordinator", api.link.address()}});
  });
  // Login trades a coordinator token for a new session (a new id, so a
  // session id planted before the login is worth nothing after it).
  server.Post("/api/login", [&api](const httplib::Request& req, httplib::Response& res) {
    auto old = api.sessions.Find(SessionCookie(req));
    const std::string csrf = req.get_header_value("X-CSRF-Token");
    if (!old || !SessionTable::SameSecret(csrf, old->csrf)) {
      return SendError(res, 403, "missing or wrong CSRF token: reload the page");
    }
    auto body = JsonBody(req);
    if (!body.ok()) return SendError(res, body.status());
    // Pasted tokens often carry a newline or spaces: they are never part of one.
    std::string token = FieldText(*body, "token");
    std::erase_if(token, [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
    if (token.empty())
      return SendError(res, 400, "give a token (the coordinator's reader or admin token)");
    // Tokens are 32-64 characters; a huge one would travel on to the
    // coordinator in a gRPC header with every call.
    if (token.size() > kMaxTokenLength) {
      return SendError(res, 400,
                       fmt::format("a token has at most {} characters, this one {}",
                                   kMaxTokenLength, token.size()));
    }
    auto open = api.link.OpenToAnyone();
    if (open.ok() && *open) {
      return SendError(res, 403,
                       "the coordinator takes calls without any token, so a login would protect "
                       "nothing: start it with --admin-token-file and --reader-token-file");
    }
    auto role = api.link.ProbeRole(token);
    if (!role.ok()) {
      return SendError(res, role.status().code() == Status::Code::kPermissionDenied ? 401 : 502,
                       role.status().message());
    }
    api.sessions.Remove(old->id);
    const Session s = api.sessions.Create(*role, token, true);
    res.set_header("Set-Cookie", CookieHeader(s.id, api.https));
    SendJson(res, {{"role", RoleName(s.role)}, {"csrf", s.csrf}, {"logged_in", true}});
  });
  server.Post("/api/logout",
              Guard(api, Need::kReader,
                    [&api](const httplib::Request&, httplib::Response& res, const Session& s) {
                      api.sessions.Remove(s.id);
                      res.set_header("Set-Cookie", CookieHeader("", api.https) + "; Max-Age=0");
                      SendJson(res, nlohmann::json::object());
                    }));
}

}  // namespace

Result<std::unique_ptr<ConsoleServer>> ConsoleServer::Start(const CoordinatorLink& link,
                                                            const ConsoleOptions& options) {
  FOUNDRY_RETURN_IF_ERROR(CheckListenAddress("--listen", options.listen));
  const auto listen = SplitHostPort(options.listen);
  const std::string& host = listen->host;
  int port = listen->port;
  const bool https = !options.https_cert_file.empty() || !options.https_key_file.empty();
  if (https && (options.https_cert_file.empty() || options.https_key_file.empty())) {
    return Status::InvalidArgument("HTTPS needs both --https-cert and --https-key");
  }
  for (const std::string* f : {&options.https_cert_file, &options.https_key_file}) {
    if (!f->empty() && !Readable(*f))
      return Status::InvalidArgument(fmt::format("cannot read '{}'", *f));
  }
  const bool loopback = IsLoopbackAddress(options.listen);
  if (!loopback && !https) {
    return Status::FailedPrecondition(fmt::format(
        "refusing to listen on {} without HTTPS: off loopback, tokens and session cookies would "
        "cross the network in clear. Give --https-cert and --https-key (a token login is then "
        "required), or listen on 127.0.0.1",
        options.listen));
  }

  std::unique_ptr<ConsoleServer> server(new ConsoleServer());
  TlsContext tls;
  if (https) {
    auto ctx = MakeTlsContext(options.https_cert_file, options.https_key_file);
    if (!ctx.ok()) return ctx.status();
    tls = std::move(*ctx);
  }
  auto router = std::make_unique<Router>();
  Router* route = router.get();
  server->http_ = std::move(router);
  server->poller_ = std::make_unique<StorePoller>(link, options.own_token, options.poll_interval);
  server->api_ = std::make_unique<ConsoleApi>(link, *server->poller_, options.own_token,
                                              options.require_login || !loopback, https);
  httplib::Server& http = *server->http_;
  ConsoleApi& api = *server->api_;

  http.set_default_headers({{"Content-Security-Policy", kContentSecurityPolicy},
                            {"X-Content-Type-Options", "nosniff"},
                            {"Referrer-Policy", "no-referrer"},
                            {"X-Frame-Options", "DENY"}});
  http.set_payload_max_length(options.limits.frame.max_body);
  // On loopback, only this machine's names and the console's own port may
  // appear in Host: a page of another site that re-points its DNS name at
  // 127.0.0.1 (DNS rebinding, even with a name like 127.x.evil.example) is
  // refused before it can read anything.
  if (loopback) {
    http.set_pre_routing_handler([raw = server.get()](const httplib::Request& req,
                                                      httplib::Response& res) {
      if (IsLoopbackHostHeader(req.get_header_value("Host"), raw->port_)) {
        return httplib::Server::HandlerResponse::Unhandled;
      }
      SendError(res, 403,
                fmt::format("this console answers only to a loopback Host (localhost, an address "
                            "of 127.0.0.0/8 or [::1]) with its port {}",
                            raw->port_));
      return httplib::Server::HandlerResponse::Handled;
    });
  }
  // The embedded assets (assets.h): the page and its scripts and style.
  http.Get(R"(/|/index\.html|/[a-z_]+\.js|/[a-z_]+\.css)",
           [](const httplib::Request& req, httplib::Response& res) {
             const Asset* a = FindAsset(req.path);
             if (a == nullptr) return SendError(res, 404, "no such page");
             res.set_content(std::string(a->body), std::string(a->content_type).c_str());
           });
  // Browsers ask for it on every page; there is none (an empty answer keeps
  // their logs clean).
  http.Get("/favicon.ico",
           [](const httplib::Request&, httplib::Response& res) { res.status = 204; });
  AddSessionRoutes(http, api);
  AddCampaignRoutes(http, api);
  AddPuzzleRoutes(http, api);
  AddPlayerRoutes(http, api);
  http.Get(R"(/api/.*)", [](const httplib::Request& req, httplib::Response& res) {
    SendError(res, 404, fmt::format("no API route {}", QuoteInput(req.path)));
  });
  // Every answer, refusals included, is JSON with an error sentence.
  const auto not_allowed = [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Allow", "GET, POST");
    SendError(res, 405,
              fmt::format("{} is not allowed: the console takes GET and POST",
                          QuoteInput(req.method, 16)));
  };
  // What httplib answers by itself (a method it does not know, a request
  // line it cannot read) gets the sentence too.
  http.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        std::string what = fmt::format("HTTP status {}", res.status);
        if (res.status == 400)
          what = "the console cannot read this request (its method or its line)";
        if (res.status == 404) what = "no such page";
        SendError(res, res.status, what);
        return httplib::Server::HandlerResponse::Handled;
      }));
  http.Put(R"(/.*)", not_allowed);
  http.Patch(R"(/.*)", not_allowed);
  http.Delete(R"(/.*)", not_allowed);
  http.Options(R"(/.*)", not_allowed);

  auto gate = HttpGate::Bind(host, port, std::move(tls), options.limits,
                             [route](httplib::Stream& stream) { return route->Serve(stream); });
  if (!gate.ok()) {
    return Status::Unavailable(fmt::format("cannot listen on {} (in use?)", options.listen));
  }
  server->gate_ = std::move(*gate);
  port = server->gate_->port();
  server->port_ = port;
  const bool v6 = host.find(':') != std::string::npos;
  server->url_ = fmt::format("{}://{}{}{}:{}/", https ? "https" : "http", v6 ? "[" : "", host,
                             v6 ? "]" : "", port);
  server->poller_->Start();
  server->thread_ = std::thread([gate = server->gate_.get()] { gate->Run(); });
  return server;
}

ConsoleServer::~ConsoleServer() {
  Stop();
  Wait();
}

void ConsoleServer::Wait() {
  if (thread_.joinable()) thread_.join();
}

void ConsoleServer::Stop() {
  if (gate_) gate_->Stop();
}

}  // namespace foundry::console
