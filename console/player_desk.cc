#include "console/player_desk.h"

#include <cmath>
#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

#include "common/secure_random.h"
#include "common/unix_time.h"
#include "console/session_table.h"

namespace foundry::console {
namespace {

// The store's range of NextPuzzle's offset.
constexpr double kMaxOffset = 1000;

}  // namespace

std::string PlayerDesk::player() const {
  std::lock_guard lock(mu_);
  return player_;
}

void PlayerDesk::SetPlayer(std::string name) {
  std::lock_guard lock(mu_);
  player_ = std::move(name);
}

Round PlayerDesk::Open(Round fresh) {
  std::lock_guard lock(mu_);
  for (auto it = rounds_.rbegin(); it != rounds_.rend(); ++it) {
    if (it->puzzle_id == fresh.puzzle_id && it->player == fresh.player) return *it;
  }
  fresh.play_id = "console-" + SecureRandomHex(16);
  fresh.served_ms = NowUnixMs();
  if (rounds_.size() >= kMaxRounds) rounds_.pop_front();
  rounds_.push_back(fresh);
  return fresh;
}

std::optional<Round> PlayerDesk::Find(const std::string& puzzle_id) const {
  std::lock_guard lock(mu_);
  for (auto it = rounds_.rbegin(); it != rounds_.rend(); ++it) {
    if (it->puzzle_id == puzzle_id) return *it;
  }
  return std::nullopt;
}

bool PlayerDesk::Unplayed(const std::string& puzzle_id) const {
  std::lock_guard lock(mu_);
  for (const Round& r : rounds_) {
    if (r.puzzle_id == puzzle_id && !r.result) return true;
  }
  return false;
}

std::optional<Round> PlayerDesk::Finish(const std::string& puzzle_id, const std::string& play_id,
                                        const PlayEntry& result, std::string answer,
                                        std::string solution) {
  std::lock_guard lock(mu_);
  for (Round& r : rounds_) {
    if (r.puzzle_id != puzzle_id || r.play_id != play_id) continue;
    if (!r.result) {
      r.result = result;
      r.answer = std::move(answer);
      r.solution = std::move(solution);
      if (history_.size() >= kMaxHistory) history_.pop_front();
      history_.push_back(result);
    }
    return r;
  }
  return std::nullopt;
}

std::vector<PlayEntry> PlayerDesk::History() const {
  std::lock_guard lock(mu_);
  return {history_.rbegin(), history_.rend()};
}

std::vector<Round> PlayerDesk::OpenRounds() const {
  std::lock_guard lock(mu_);
  std::vector<Round> out;
  for (auto it = rounds_.rbegin(); it != rounds_.rend(); ++it) {
    if (!it->result) out.push_back(*it);
  }
  return out;
}

Result<std::string> PlayerNameFrom(const nlohmann::json& body) {
  auto it = body.find("name");
  if (it == body.end() || it->is_null()) {
    return Status::InvalidArgument("give a player name: {\"name\": \"...\"}");
  }
  if (!it->is_string()) return Status::InvalidArgument("the player name must be a string");
  std::string name = it->get<std::string>();
  const auto first = name.find_first_not_of(" \t");
  const auto last = name.find_last_not_of(" \t");
  name = first == std::string::npos ? "" : name.substr(first, last - first + 1);
  if (name.empty()) return Status::InvalidArgument("the player name must not be empty");
  if (name.size() > kMaxPlayerNameBytes) {
    return Status::InvalidArgument(fmt::format("the player name must be at most {} bytes, got {}",
                                               kMaxPlayerNameBytes, name.size()));
  }
  for (unsigned char c : name) {
    // A name is shown in tables and logs; a newline or an escape code in it
    // would only ever be a mistake or mischief.
    if (c < 0x20 || c == 0x7f) {
      return Status::InvalidArgument("the player name must not contain control characters");
    }
  }
  return name;
}

Result<double> OffsetFrom(const nlohmann::json& body) {
  auto it = body.find("offset");
  if (it == body.end() || it->is_null()) return 0.0;
  const auto bad = [&](const std::string& got) {
    return Status::InvalidArgument(fmt::format(
        "offset must be a number -{0:.0f}..{0:.0f} (below 0 easier, above 0 harder), got {1}",
        kMaxOffset, got));
  };
  double v = 0;
  if (it->is_number()) {
    v = it->get<double>();
  } else if (it->is_string()) {
    const std::string text = it->get<std::string>();
    if (text.empty()) return 0.0;
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return bad("'" + text + "'");
  } else {
    return bad(it->dump());
  }
  if (!std::isfinite(v) || std::abs(v) > kMaxOffset) return bad(fmt::format("{}", v));
  return v;
}

std::string UtcDate(int64_t unix_ms) {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

nlohmann::json PlayEntryJson(const PlayEntry& e) {
  return {{"puzzle_id", e.puzzle_id},
          {"family", e.family},
          {"player", e.player},
          {"source", e.source},
          {"offset", e.offset},
          {"solved", e.solved},
          {"rated", e.rated},
          {"rating_before", e.rating_before},
          {"rating", e.rating_after},
          {"rating_change", e.rating_after - e.rating_before},
          {"deviation", e.deviation},
          {"plays", e.plays},
          {"solves", e.solves},
          {"puzzle_rating", e.puzzle_rating},
          {"puzzle_rating_change", e.puzzle_rating_change},
          {"seconds", e.seconds},
          {"t_ms", e.t_ms}};
}

nlohmann::json RoundJson(const Round& r) {
  nlohmann::json j = {{"puzzle_id", r.puzzle_id},
                      {"family", r.family},
                      {"player", r.player},
                      {"source", r.source},
                      {"offset", r.offset},
                      {"served_ms", r.served_ms},
                      {"played", r.result.has_value()}};
  if (!r.date.empty()) j["date"] = r.date;
  if (r.result) {
    j["result"] = PlayEntryJson(*r.result);
    j["answer"] = r.answer;
    if (!r.result->solved) j["solution"] = r.solution;
  }
  return j;
}

}  // namespace foundry::console
