// The foundry command's subcommands. Each Add*Command registers one
// subcommand on `app`; its callback stores the process exit code in
// `exit_code` (0 success, 1 failure) and prints errors to stderr as
// "foundry: <what is wrong>".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/status.h"
#include "foundry/v1/campaign.pb.h"

namespace foundry::cli {

void AddRunCommand(CLI::App& app, int& exit_code);
void AddExportCommand(CLI::App& app, int& exit_code);
void AddVerifyCommand(CLI::App& app, int& exit_code);
void AddFamiliesCommand(CLI::App& app, int& exit_code);
void AddCampaignCommand(CLI::App& app, int& exit_code);
void AddGetCommand(CLI::App& app, int& exit_code);
void AddSampleCommand(CLI::App& app, int& exit_code);
void AddStatsCommand(CLI::App& app, int& exit_code);
void AddImportCommand(CLI::App& app, int& exit_code);
void AddShowCommand(CLI::App& app, int& exit_code);
void AddPlayCommand(CLI::App& app, int& exit_code);
// foundry players refit (the grade -> rating mappings) and foundry daily
// (the puzzle of the day); docs/players.md.
void AddPlayersCommand(CLI::App& app, int& exit_code);
void AddDailyCommand(CLI::App& app, int& exit_code);
// foundry backup (online through a coordinator, or of a stopped store;
// --list, --verify) and foundry restore.
void AddBackupCommand(CLI::App& app, int& exit_code);
void AddRestoreCommand(CLI::App& app, int& exit_code);
// foundry solve bulls-cows: the computer guesses, a person answers.
void AddSolveCommand(CLI::App& app, int& exit_code);
// foundry console: runs foundry-console (beside this binary) with its flags.
void AddConsoleCommand(CLI::App& app, int& exit_code);

// The flags `run` and `campaign submit` share.
struct GenerationFlags {
  std::string family;
  int64_t count = 0;  // signed so that "-5" is reported as -5, not as 2^64 - 5
  uint64_t seed = 1;
  std::vector<std::string> sets;  // "key=value"
  std::string level;              // "" or any|easy|medium|hard|expert
  std::optional<double> min_score, max_score;
  int priority = 0;
  uint32_t job_size = 0;
};

void AddGenerationFlags(CLI::App& cmd, GenerationFlags& flags);

// Builds a campaign spec and validates it locally (family, params) so that a
// typo fails before anything starts. InvalidArgument naming the problem.
Result<foundry::v1::CampaignSpec> ToSpec(const GenerationFlags& flags);

// Prints "foundry: <message>" to stderr and returns 1.
int Fail(const std::string& message);

// The store `foundry run` writes when no --db is given.
inline constexpr char kDefaultDb[] = "foundry-db";
// A command that reads a store and was given neither `db` nor the other
// source (`other`: --coordinator, or verify's FILE) uses kDefaultDb when
// that directory exists here: `foundry run` then `foundry stats` just work.
// Otherwise `db` as given ("" when none).
std::string DbOrDefault(const std::string& db, const std::string& other);
// What a command with no store to read asks for: "exactly one of --db DIR
// or `other`", and that none is needed where ./foundry-db exists.
std::string NoStoreGiven(const std::string& other = "--coordinator HOST:PORT");

// A check for --coordinator: HOST:PORT or a gRPC target with a scheme
// (CheckDialAddress), so that a missing port is named, not dialled at 443.
CLI::Validator DialAddress();

// A check for names given as flags (a player, a family): an empty value is
// refused by name instead of reading as if the flag were not given.
CLI::Validator NotEmpty();

}  // namespace foundry::cli
