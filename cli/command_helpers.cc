// What every subcommand shares (commands.h): the error line, the default
// store, the check of unsigned flags.
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "cli/commands.h"
#include "common/listen_address.h"

namespace foundry::cli {

int Fail(const std::string& message) {
  fmt::print(stderr, "foundry: {}\n", message);
  return 1;
}

std::string DbOrDefault(const std::string& db, const std::string& other) {
  if (!db.empty() || !other.empty()) return db;
  std::error_code ec;
  return std::filesystem::is_directory(kDefaultDb, ec) ? kDefaultDb : "";
}

std::string NoStoreGiven(const std::string& other) {
  return fmt::format("exactly one of --db DIR or {} (none needed where `foundry run` made ./{})",
                     other, kDefaultDb);
}

CLI::Validator DialAddress() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const Status s = CheckDialAddress("", value);
        return s.ok() ? "" : s.message();
      },
      "", "HOST:PORT");
}

CLI::Validator NotEmpty() {
  return CLI::Validator(
      [](std::string& value) -> std::string { return value.empty() ? "must not be empty" : ""; },
      "", "NOT_EMPTY");
}

}  // namespace foundry::cli
