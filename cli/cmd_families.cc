// foundry families: the families of this build, their parameters, defaults
// and ranges.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "puzzles/registry.h"

namespace foundry::cli {

void AddFamiliesCommand(CLI::App& app, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("families", "List puzzle families and their parameters");
  cmd->add_flag("--json", *json, "As JSON");
  cmd->callback([json, &exit_code] {
    nlohmann::json all = nlohmann::json::array();
    for (const puzzles::Family* f : puzzles::AllFamilies()) {
      nlohmann::json params = nlohmann::json::array();
      for (const auto& p : f->param_specs()) {
        params.push_back({{"key", p.key},
                          {"default", p.DefaultText()},
                          {"allowed", p.AllowedText()},
                          {"help", p.help}});
      }
      all.push_back({{"name", f->name()},
                     {"id_prefix", f->id_prefix()},
                     {"summary", f->summary()},
                     {"params", params}});
    }
    if (*json) {
      fmt::print("{}\n", all.dump(2));
    } else {
      for (const auto& f : all) {
        fmt::print("{} ({}-): {}\n", f["name"].get<std::string>(),
                   f["id_prefix"].get<std::string>(), f["summary"].get<std::string>());
        for (const auto& p : f["params"]) {
          fmt::print("  {:<16} default {:<8} allowed {:<12} {}\n", p["key"].get<std::string>(),
                     p["default"].get<std::string>(), p["allowed"].get<std::string>(),
                     p["help"].get<std::string>());
        }
      }
      fmt::print("every family (--level, --min-score, --max-score, or --set key=value):\n");
      for (const auto& g : puzzles::GoalKeys()) {
        fmt::print("  {:<16} default {:<8} allowed {:<12} {}\n", g.key, g.default_text, g.allowed,
                   g.help);
      }
    }
    exit_code = 0;
  });
}

}  // namespace foundry::cli
