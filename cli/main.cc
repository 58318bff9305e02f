// foundry: the command line of Puzzle Foundry (docs/reference.md, "The command line").
#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "common/grpc_runtime.h"
#include "common/number_options.h"

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"foundry: generate, store and query uniquely solvable logic puzzles"};
  app.require_subcommand(1);
  int exit_code = 0;
  foundry::cli::AddRunCommand(app, exit_code);
  foundry::cli::AddExportCommand(app, exit_code);
  foundry::cli::AddVerifyCommand(app, exit_code);
  foundry::cli::AddFamiliesCommand(app, exit_code);
  foundry::cli::AddCampaignCommand(app, exit_code);
  foundry::cli::AddGetCommand(app, exit_code);
  foundry::cli::AddSampleCommand(app, exit_code);
  foundry::cli::AddStatsCommand(app, exit_code);
  foundry::cli::AddImportCommand(app, exit_code);
  foundry::cli::AddShowCommand(app, exit_code);
  foundry::cli::AddPlayCommand(app, exit_code);
  foundry::cli::AddPlayersCommand(app, exit_code);
  foundry::cli::AddDailyCommand(app, exit_code);
  foundry::cli::AddSolveCommand(app, exit_code);
  foundry::cli::AddBackupCommand(app, exit_code);
  foundry::cli::AddRestoreCommand(app, exit_code);
  foundry::cli::AddConsoleCommand(app, exit_code);
  foundry::StrictNumberOptions(app);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
