// foundry console: the web console under the foundry command, as the
// command line promises. It runs foundry-console, which lives beside this
// binary, with every argument after "console" (its own --help among them),
// so the two never disagree on flags.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"

namespace foundry::cli {
namespace {

// Replaces this process with foundry-console; returns only on failure.
int RunConsole(const std::vector<std::string>& args) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    return Fail(fmt::format("console: cannot find this program's directory: {}", ec.message()));
  const std::string console = (self.parent_path() / "foundry-console").string();
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(console.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(console.c_str(), argv.data());
  return Fail(fmt::format("console: cannot run {}: {} (it is built and installed beside foundry)",
                          console, std::strerror(errno)));
}

}  // namespace

void AddConsoleCommand(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "console", "Serve the web console for a coordinator (foundry console --help: its flags)");
  // Everything after "console" is foundry-console's, --help too.
  cmd->prefix_command();
  cmd->set_help_flag();
  cmd->callback([cmd, &exit_code] { exit_code = RunConsole(cmd->remaining()); });
}

}  // namespace foundry::cli
