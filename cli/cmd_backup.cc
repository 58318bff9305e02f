// foundry backup / restore: backups of a store (storage/backup.h), online
// through a coordinator (StoreAdmin.BackupStore) or of a stopped store
// directory, and their listing, verification and restore.
#include <chrono>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>

#include "cli/client.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "foundry/v1/backup.grpc.pb.h"
#include "storage/backup.h"

namespace foundry::cli {
namespace {

struct BackupFlags {
  std::string coordinator;
  std::string db;
  std::string to;
  bool list = false;
  bool verify = false;
  std::optional<uint32_t> backup_id;
  uint32_t keep = 0;
  double timeout_seconds = 3600;
};

std::string UtcTime(int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string Megabytes(uint64_t bytes) { return fmt::format("{:.1f} MB", bytes / 1e6); }

void PrintBackup(const storage::BackupSummary& b) {
  fmt::print("{:>4}  {}  {:>10}  {:>6} files  {:>12} puzzles  {:>5} campaigns\n", b.id,
             UtcTime(b.timestamp_unix), Megabytes(b.size_bytes), b.files, Grouped(b.puzzles),
             b.campaigns);
}

int List(const BackupFlags& f) {
  std::vector<uint32_t> damaged;
  auto backups = storage::ListBackups(f.to, &damaged);
  if (!backups.ok()) return Fail(backups.status().message());
  fmt::print("{:>4}  {:<20}  {:>10}  {:>12}  {:>20}  {:>15}\n", "id", "taken (UTC)", "size",
             "files", "puzzles at start", "campaigns");
  for (const auto& b : *backups) PrintBackup(b);
  for (uint32_t id : damaged) fmt::print("{:>4}  DAMAGED (its metadata does not read)\n", id);
  return damaged.empty() ? 0 : 1;
}

int Verify(const BackupFlags& f) {
  auto checked = storage::VerifyBackups(f.to, f.backup_id);
  if (!checked.ok()) return Fail(checked.status().message());
  for (const auto& b : *checked) {
    fmt::print("backup {} good: {} files, {} checked against their checksums\n", b.id, b.files,
               Megabytes(b.size_bytes));
  }
  return 0;
}

int Online(const BackupFlags& f) {
  // The directory is opened by the coordinator: a path relative to this
  // shell would mean something else there.
  if (!std::filesystem::path(f.to).is_absolute()) {
    return Fail(
        fmt::format("--to must be an absolute path with --coordinator (the backup is "
                    "written on the coordinator's filesystem), got '{}'",
                    f.to));
  }
  auto stub = foundry::v1::StoreAdmin::NewStub(Connect(f.coordinator));
  foundry::v1::BackupStoreRequest req;
  req.set_backup_dir(f.to);
  req.set_keep(f.keep);
  if (Status text = CheckUtf8Fields(req); !text.ok()) return Fail(text.message());
  foundry::v1::BackupStoreResponse resp;
  auto ctx = CallContext(std::chrono::milliseconds(static_cast<int64_t>(f.timeout_seconds * 1000)));
  grpc::Status s = stub->BackupStore(ctx.get(), req, &resp);
  if (!s.ok()) return Fail(DescribeRpcError(s, f.coordinator));
  const auto& b = resp.backup();
  fmt::print(
      "backup {} of the coordinator's store in {} on the coordinator, {:.1f} s: {} files, "
      "{}, {} puzzles at its start\n",
      b.backup_id(), f.to, resp.seconds(), b.files(), Megabytes(b.size_bytes()),
      Grouped(b.puzzles()));
  return 0;
}

int Offline(const BackupFlags& f) {
  const auto start = std::chrono::steady_clock::now();
  storage::BackupOptions options;
  options.keep = f.keep;
  auto b = storage::BackupStoppedStore(f.db, f.to, options);
  if (!b.ok()) {
    if (b.status().code() == Status::Code::kUnavailable) {
      return Fail(b.status().message() +
                  "; a running coordinator's store is backed up through it: foundry backup "
                  "--coordinator ADDR --to DIR");
    }
    return Fail(b.status().message());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("backup {} of {} in {}, {:.1f} s: {} files, {}, {} puzzles\n", b->id, f.db, f.to,
             seconds, b->files, Megabytes(b->size_bytes), Grouped(b->puzzles));
  return 0;
}

int Backup(const BackupFlags& f) {
  if (f.list && f.verify) return Fail("--list and --verify are separate commands; give one");
  if (f.list || f.verify) {
    if (!f.coordinator.empty() || !f.db.empty()) {
      return Fail(
          "--list and --verify read the backup directory (--to) on this machine; drop "
          "--coordinator/--db");
    }
    if (f.list && f.backup_id) return Fail("--backup-id goes with --verify, not --list");
    return f.list ? List(f) : Verify(f);
  }
  if (f.backup_id) return Fail("--backup-id goes with --verify (or with foundry restore)");
  if (f.coordinator.empty() == f.db.empty()) {
    return Fail(
        "give either --coordinator ADDR (a running coordinator's store, online) or --db "
        "DIR (a stopped store)");
  }
  return f.coordinator.empty() ? Offline(f) : Online(f);
}

struct RestoreFlags {
  std::string from;
  std::string to;
  std::optional<uint32_t> backup_id;
};

int Restore(const RestoreFlags& f) {
  const auto start = std::chrono::steady_clock::now();
  auto b = storage::RestoreBackup(f.from, f.to, f.backup_id);
  if (!b.ok()) return Fail(b.status().message());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("restored backup {} (taken {}) into {} in {:.1f} s: {} puzzles, {} campaigns\n", b->id,
             UtcTime(b->timestamp_unix), f.to, seconds, Grouped(b->puzzles), b->campaigns);
  return 0;
}

}  // namespace

void AddBackupCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<BackupFlags>();
  CLI::App* cmd = app.add_subcommand(
      "backup",
      "Back up a store into a backup directory (incremental after the first), or list or verify "
      "the backups there");
  cmd->add_option("--coordinator", f->coordinator,
                  "Back up this running coordinator's store, online (admin token: "
                  "FOUNDRY_TOKEN_FILE); --to is then a directory on the coordinator's filesystem")
      ->check(DialAddress());
  cmd->add_option("--db", f->db,
                  "Back up this stopped store directory (refused while a process has it open)");
  cmd->add_option("--to", f->to, "The backup directory (absent, empty, or holding earlier backups)")
      ->required();
  cmd->add_flag("--list", f->list, "List the backups in --to: id, time, size, files");
  cmd->add_flag(
      "--verify", f->verify,
      "Re-read the backups in --to (or --backup-id) against their checksums; exit 1 on damage");
  cmd->add_option("--backup-id", f->backup_id, "With --verify: only this backup")
      ->check(CLI::Range(1u, 1u << 31));
  cmd->add_option("--keep", f->keep, "After the backup, keep only the newest N (0: all)")
      ->check(CLI::Range(0u, 100000u));
  cmd->add_option("--timeout-seconds", f->timeout_seconds,
                  "With --coordinator: give up after this long")
      ->check(CLI::Range(1.0, 86400.0 * 7));
  cmd->callback([f, &exit_code] { exit_code = Backup(*f); });
}

void AddRestoreCommand(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<RestoreFlags>();
  CLI::App* cmd = app.add_subcommand(
      "restore", "Restore a backup into a new store directory (never over an existing one)");
  cmd->add_option("--from", f->from, "The backup directory")->required();
  cmd->add_option("--to", f->to,
                  "The store directory to create: absent or empty (an existing store is refused)")
      ->required();
  cmd->add_option("--backup-id", f->backup_id, "Which backup (default: the latest good one)")
      ->check(CLI::Range(1u, 1u << 31));
  cmd->callback([f, &exit_code] { exit_code = Restore(*f); });
}

}  // namespace foundry::cli
