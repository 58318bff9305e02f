// foundry run: a whole campaign in one process — the coordinator core, an
// in-process worker and the store, no network.
#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/in_process_job_source.h"
#include "cli/progress.h"
#include "cli/puzzle_json.h"
#include "common/secure_random.h"
#include "coordinator/coordinator.h"
#include "worker/lease_loop.h"

namespace foundry::cli {
namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void OnInterrupt(int) { g_interrupted = true; }

struct RunFlags {
  GenerationFlags gen;
  std::string db = kDefaultDb;
  int threads = static_cast<int>(std::thread::hardware_concurrency());
  bool quiet = false;
  uint64_t min_free_disk_mb = storage::StoreOptions().min_free_bytes >> 20;
};

// Prints the first puzzle the campaign stored.
void PrintExample(storage::Store& store, const std::string& campaign_id) {
  storage::PuzzleFilter filter;
  filter.campaign_id = campaign_id;
  (void)store.Scan(filter, "", 1, [](const foundry::v1::Puzzle& p) {
    fmt::print("\nExample puzzle:\n{}", PuzzleToText(p));
    return false;
  });
}

// The generation fingerprint both halves of an in-process run present.
constexpr char kInProcessFingerprint[] = "in-process";

// Compactions fall behind while generation keeps every core busy; they are
// finished here, while nothing else runs, so that the store this run hands
// over serves its next reader at full speed (storage/store.h,
// SettleCompactions). Ctrl-C leaves them for the store's next open.
void SettleStore(storage::Store& store, bool quiet) {
  constexpr auto kQuietWait = std::chrono::seconds(1);
  constexpr auto kMostWait = std::chrono::seconds(120);
  if (store.SettleCompactions(kQuietWait, g_interrupted)) return;
  if (!quiet) {
    fmt::print(stderr,
               "finishing the store's compactions (Ctrl-C leaves them for its next open)\n");
  }
  if (!store.SettleCompactions(kMostWait - kQuietWait, g_interrupted) && !quiet) {
    fmt::print(stderr, "note: compactions still owed; the store's next open does them\n");
  }
}

int Run(const RunFlags& flags) {
  auto spec = ToSpec(flags.gen);
  if (!spec.ok()) return Fail(spec.status().message());
  storage::StoreOptions store_options;
  store_options.min_free_bytes = flags.min_free_disk_mb << 20;
  auto store = storage::Store::Open(flags.db, store_options);
  if (!store.ok()) return Fail(store.status().ToString());
  coordinator::CoordinatorOptions options;
  // The lease loops below verify each other's jobs on the same arena;
  // re-generating samples of our own threads' work would catch nothing.
  options.trust.spot_checks = false;
  // The fingerprint tells a coordinator that a worker runs another build's
  // generators; here both are this process. Computing it generates a few
  // candidates of every family (bulls-cows builds a 25 MB score table),
  // some 60 ms of start-up for nothing.
  options.generation_fingerprint = kInProcessFingerprint;
  auto core = coordinator::Coordinator::Open(store->get(), options, nullptr);
  if (!core.ok()) return Fail(core.status().ToString());
  const size_t unfinished = (*core)->ListCampaigns(/*running_only=*/true).size();
  if (unfinished > 0) {
    fmt::print(stderr, "note: {} unfinished campaign(s) in {} resume as well\n", unfinished,
               flags.db);
  }
  auto campaign = (*core)->SubmitCampaign(*spec);
  if (!campaign.ok()) return Fail(campaign.status().message());
  const std::string id = campaign->id();

  worker::JobExecutor executor(flags.threads);
  InProcessJobSource source(**core, executor);
  std::atomic<bool> stop{false};
  // Lease loops sharing the executor: a job is checked by a loop that did
  // not generate it (the coordinator core leases the verification to
  // another loop), so verification and commit overlap generation on the
  // same arena. Three, not two: the loop whose check completes the job at
  // the commit cursor commits it on its own thread, and with two loops the
  // other one alone could not keep the executor busy meanwhile (it had
  // generated up to the window and waited); where checking and committing
  // cost more than generating (secret-number), a third loop's job fills
  // those gaps (docs/scale.md, "A loop that commits").
  constexpr int kLeaseLoops = 3;
  std::vector<std::thread> loops;
  for (int i = 0; i < kLeaseLoops; ++i) {
    loops.emplace_back([&, i] {
      worker::LeaseLoopOptions lo;
      lo.worker_id = fmt::format("embedded-{}", i);
      lo.worker_key = SecureRandomHex(16);
      lo.generation_fingerprint = kInProcessFingerprint;
      worker::LeaseLoop(source, executor, nullptr, lo).Run(stop);
    });
  }

  std::signal(SIGINT, OnInterrupt);
  std::signal(SIGTERM, OnInterrupt);
  const auto start = std::chrono::steady_clock::now();
  Progress progress(stderr);
  foundry::v1::Campaign last = *campaign;
  // The end is seen within 10 ms (a short campaign is not rounded up to the
  // next 100 ms); the progress line is redrawn every 100 ms.
  auto last_drawn = start;
  bool flush_started = false;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (g_interrupted.load()) {
      auto c = (*core)->CancelCampaign(id);
      if (c.ok()) last = *c;
      break;
    }
    auto c = (*core)->GetCampaign(id);
    if (!c.ok()) return Fail(c.status().ToString());
    last = *c;
    const bool running = last.state() == foundry::v1::CAMPAIGN_STATE_RUNNING;
    const auto now = std::chrono::steady_clock::now();
    if (!flags.quiet && (!running || now - last_drawn >= std::chrono::milliseconds(100))) {
      progress.Update(last);
      last_drawn = now;
    }
    if (!running) break;
    // The last tenth: start writing the store's memtables out now, on a
    // flush thread beside the last jobs, so that the close, which waits
    // while nothing else runs, has only that tenth left to flush
    // (docs/scale.md, "The flush at the end, started early").
    if (!flush_started && last.progress() >= 0.9) {
      flush_started = true;
      (*store)->StartFlush();
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stop = true;
  for (auto& t : loops) t.join();
  progress.Finish();
  ReportCampaignEnd(last, seconds);
  if (!flags.quiet) PrintExample(**store, id);
  if (!g_interrupted.load()) SettleStore(**store, flags.quiet);
  return last.state() == foundry::v1::CAMPAIGN_STATE_DONE ? 0 : 1;
}

}  // namespace

void AddRunCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* cmd = app.add_subcommand("run", "Run a campaign in this process (no network)");
  AddGenerationFlags(*cmd, flags->gen);
  cmd->add_option("--db", flags->db, "Store directory (created when missing)");
  cmd->add_option("--threads", flags->threads,
                  "Threads that compute: generation, checks and commits (default: one a core)")
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--quiet", flags->quiet, "No progress bar and no example");
  cmd->add_option("--min-free-disk-mb", flags->min_free_disk_mb,
                  "Hold commits while the store's disk has less free space than this, in MiB "
                  "(they resume when space returns); 0 = never")
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 30))
      ->capture_default_str();
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace foundry::cli
