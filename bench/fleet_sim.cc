// fleet_sim: the coordinator alone under N simulated workers.
//
// For each family the campaign's jobs are captured once, in this process,
// with the worker's own code (fleet_sim_capture.h); then, for each N, a
// fresh foundry-coordinator (temporary store, 127.0.0.1, port 0) is driven
// by N lease loops that speak the real worker protocol over a few shared
// channels: Lease with the generation fingerprint, a simulated work time
// with heartbeats at the job's interval, and SubmitResults streaming the
// chunks the real LeaseLoop would send — GENERATE jobs with the captured
// claims and stats, VERIFY jobs with the captured verdicts and
// re-generations. The workers compute nothing (fleet_sim's own CPU, about
// half a core at N=1000, is shown beside the coordinator's), and what the
// coordinator spends per stored puzzle shows beside the floor of its
// RocksDB writes alone (fleet_sim_floor.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <CLI/CLI.hpp>

#include "bench/fleet_sim_capture.h"
#include "bench/fleet_sim_floor.h"
#include "bench/fleet_sim_proc.h"
#include "bench/fleet_sim_worker.h"
#include "bench/process_cpu.h"
#include "common/grpc_runtime.h"
#include "foundry/v1/campaign.grpc.pb.h"
#include "foundry/v1/worker.grpc.pb.h"
#include "puzzles/fingerprint.h"
#include "puzzles/registry.h"

namespace {

using namespace foundry;
using namespace foundry::fleet_sim;
namespace fs = std::filesystem;

struct Flags {
  std::vector<int> workers = {1, 10, 100, 1000};
  std::vector<std::string> families = {"secret-number", "sudoku"};
  uint64_t count = 0;  // 0: per-family default (DefaultCount)
  uint64_t seed = 1;
  uint32_t job_size = 2048;
  // One heartbeat per job (at a fifth of the lease, 200 ms), and a lease
  // four times the job: lapses then mean a coordinator more than ~1 s late.
  double work_ms = 250;
  double lease_seconds = 1;
  int channels = 8;
  double poll_ms = 10;
  std::string coordinator;
  std::vector<std::string> coordinator_args;
  std::string work_dir;
};

// On a quiet 2-core machine at the defaults: ~30 s (secret-number) and
// ~12 s (sudoku) for one worker, a few seconds for 10 and more, where the
// coordinator's commits bound the rate.
uint64_t DefaultCount(const std::string& family) {
  if (family == "secret-number") return 100'000;
  if (family == "sudoku") return 40'000;
  return 10'000;
}

std::string Ms(double v) {
  return v < 0 ? "-" : v < 10 ? fmt::format("{:.2f}", v) : fmt::format("{:.0f}", v);
}

std::shared_ptr<grpc::Channel> MakeChannel(int port) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);  // a connection per channel
  args.SetMaxReceiveMessageSize(64 << 20);             // VERIFY jobs carry every claim
  return grpc::CreateCustomChannel(fmt::format("127.0.0.1:{}", port),
                                   grpc::InsecureChannelCredentials(), args);
}

// The idle fleet's RSS of the smallest fleet run, against which the larger
// ones give the memory per worker (one fresh coordinator's RSS alone moves
// by a few MB from run to run).
struct RssBase {
  int n = 0;
  double rss_idle = 0;
};

// One campaign of `count` under `n` workers on a fresh coordinator. Prints
// its table row; returns false when the run could not be done at all.
bool RunFleet(const Flags& f, FamilyCapture& cap, uint64_t count, int n, double floor_us,
              const std::string& dir, RssBase& base, std::vector<std::string>& notes) {
  fs::create_directories(dir);
  std::vector<std::string> args = f.coordinator_args;
  args.push_back(fmt::format("--lease-seconds={}", f.lease_seconds));
  std::string error;
  CoordinatorProcess coord = CoordinatorProcess::Start(f.coordinator, dir, args, &error);
  if (!error.empty()) {
    fmt::print(stderr, "fleet_sim: {}\n", error);
    return false;
  }
  const double rss_fresh = coord.RssMb();
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  std::vector<std::unique_ptr<v1::WorkerService::Stub>> stubs;
  for (int i = 0; i < f.channels; ++i) {
    channels.push_back(MakeChannel(coord.port()));
    if (!channels.back()->WaitForConnected(std::chrono::system_clock::now() +
                                           std::chrono::seconds(10))) {
      fmt::print(stderr, "fleet_sim: cannot connect to the coordinator\n");
      return false;
    }
    stubs.push_back(v1::WorkerService::NewStub(channels.back()));
  }
  auto campaigns = v1::CampaignService::NewStub(channels[0]);

  Fleet sh;
  sh.work_ms = f.work_ms;
  sh.capture = &cap;
  sh.fingerprint = puzzles::GenerationFingerprint();
  sh.epoch = Clock::now();
  std::vector<WorkerRecord> recs(n);
  std::vector<std::unique_ptr<SimWorker>> workers;
  const std::string prefix = fmt::format("sim-{}-{}-", getpid(), n);
  for (int i = 0; i < n; ++i) {
    workers.push_back(std::make_unique<SimWorker>(sh, *stubs[i % f.channels],
                                                  prefix + std::to_string(i), recs[i]));
    workers.back()->Start();
  }
  // The idle fleet: every worker has asked once, then a second of polling.
  for (int i = 0; i < 600 && sh.leased_once.load() < n; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const double rss_idle = coord.RssMb();

  v1::SubmitCampaignRequest submit;
  submit.mutable_spec()->set_family(std::string(cap.family().name()));
  submit.mutable_spec()->set_count(count);
  submit.mutable_spec()->set_seed(f.seed);
  submit.mutable_spec()->set_job_size(static_cast<uint32_t>(cap.job_size()));
  v1::Campaign campaign;
  const double cpu0 = coord.CpuSeconds(), sim_cpu0 = foundry::bench::ProcessCpuSeconds(),
               busy0 = MachineBusySeconds();
  const auto t0 = Clock::now();
  {
    grpc::ClientContext ctx;
    SetDeadline(ctx);
    grpc::Status s = campaigns->SubmitCampaign(&ctx, submit, &campaign);
    if (!s.ok()) {
      fmt::print(stderr, "fleet_sim: SubmitCampaign: {}\n", s.error_message());
      sh.StopAndWait();
      return false;
    }
  }
  // Poll the cursor: when each job became committed, and the end.
  std::vector<std::pair<int64_t, uint64_t>> cursor;  // (µs after epoch, next_index)
  v1::GetCampaignRequest get;
  get.set_campaign_id(campaign.id());
  const auto give_up = t0 + std::chrono::minutes(10);
  while (Clock::now() < give_up) {
    grpc::ClientContext ctx;
    SetDeadline(ctx);
    v1::Campaign c;
    if (campaigns->GetCampaign(&ctx, get, &c).ok()) {
      cursor.emplace_back(sh.Us(Clock::now()), c.next_index());
      campaign = c;
      if (c.state() != v1::CAMPAIGN_STATE_RUNNING) break;
    }
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(f.poll_ms));
  }
  const auto t1 = Clock::now();
  const double cpu = coord.CpuSeconds() - cpu0,
               sim_cpu = foundry::bench::ProcessCpuSeconds() - sim_cpu0;
  const double others = std::max(0.0, MachineBusySeconds() - busy0 - cpu - sim_cpu);
  const double rss_end = coord.RssMb();
  sh.StopAndWait();

  v1::ListWorkersResponse listed;
  {
    grpc::ClientContext ctx;
    SetDeadline(ctx);
    (void)campaigns->ListWorkers(&ctx, v1::ListWorkersRequest(), &listed);
  }
  int quarantined = 0;
  for (const auto& w : listed.workers()) quarantined += w.state() == v1::WORKER_STATE_QUARANTINED;
  const std::string metrics = coord.Metrics();
  coord.Stop();

  const double seconds = std::chrono::duration<double>(t1 - t0).count();
  const uint64_t stored = campaign.counters().stored();
  const int64_t from = sh.Us(t0), to = sh.Us(t1);
  const CallStats lease = Summarise(recs, &WorkerRecord::lease, from, to);
  const CallStats beat = Summarise(recs, &WorkerRecord::beat, from, to);
  const CallStats sub = Summarise(recs, &WorkerRecord::submit, from, to);
  // Commit latency: from a job's last accepted submission (its VERIFY, or
  // its GENERATE when the coordinator verified it itself) to the first poll
  // that saw the cursor past it.
  std::map<uint64_t, int64_t> last_submit;
  uint64_t errors = 0, abandoned = 0, repeated = 0, refused = 0;
  std::string first_error;
  for (const auto& r : recs) {
    for (const auto& [seq, t] : r.accepted) last_submit[seq] = std::max(last_submit[seq], t);
    errors += r.errors;
    abandoned += r.abandoned;
    repeated += r.repeated;
    refused += r.refused;
    if (first_error.empty()) first_error = r.first_error;
  }
  std::vector<Call> commits;
  for (const auto& [seq, t] : last_submit) {
    const uint64_t end = (seq + 1) * cap.job_size();
    auto it = std::find_if(cursor.begin(), cursor.end(),
                           [&](const auto& c) { return c.first >= t && c.second >= end; });
    if (it != cursor.end()) commits.push_back({t, static_cast<uint32_t>(it->first - t)});
  }
  WorkerRecord commit_rec;
  commit_rec.lease = std::move(commits);
  const CallStats commit = Summarise({commit_rec}, &WorkerRecord::lease, from, to);

  const double lapsed = MetricValue(metrics, "foundry_lease_expirations_total");
  const double w50 = HistogramQuantile(metrics, "foundry_store_write_seconds", 0.5);
  const double w99 = HistogramQuantile(metrics, "foundry_store_write_seconds", 0.99);
  const double cpu_us = stored ? cpu * 1e6 / static_cast<double>(stored) : 0;
  std::string per_1000 = "-";
  if (base.n == 0) {
    base = {n, rss_idle};
  } else if (n - base.n >= 90) {  // smaller differences drown in the allocator's noise
    per_1000 = fmt::format("{:.1f}", (rss_idle - base.rss_idle) * 1000.0 / (n - base.n));
  }
  fmt::print(
      "| {} | {} | {:.1f} | {:.0f} | {:.0f} | {:.1f}x | {:.2f} / {:.2f} / {:.2f} | {:.0f} | {} / "
      "{} | "
      "{:.0f} | {} / {} | {:.0f} | {} / {} | {} / {} | {} / {} | {:.0f} | {:.0f} | {} |\n",
      cap.family().name(), n, seconds, static_cast<double>(stored) / seconds, cpu_us,
      floor_us > 0 ? cpu_us / floor_us : 0, cpu / seconds, sim_cpu / seconds, others / seconds,
      lease.rate, Ms(lease.p50), Ms(lease.p99), beat.rate, Ms(beat.p50), Ms(beat.p99), sub.rate,
      Ms(sub.p50), Ms(sub.p99), Ms(commit.p50), Ms(commit.p99), Ms(w50 < 0 ? -1 : w50 * 1e3),
      Ms(w99 < 0 ? -1 : w99 * 1e3), lapsed, rss_end, per_1000);
  std::fflush(stdout);

  // Anything that makes the row suspect goes below the table.
  const std::string what = fmt::format("{} N={}", cap.family().name(), n);
  if (campaign.state() != v1::CAMPAIGN_STATE_DONE || stored != count) {
    notes.push_back(fmt::format("{}: campaign ended {} with {} of {} stored ({})", what,
                                v1::CampaignState_Name(campaign.state()), stored, count,
                                campaign.message()));
  }
  if (n == 1) {
    notes.push_back(what +
                    ": no other worker to verify, so the coordinator verifies every job itself "
                    "(Verify of each puzzle, re-generation of the sample): its CPU includes that");
  }
  if (quarantined > 0)
    notes.push_back(fmt::format("{}: {} workers QUARANTINED", what, quarantined));
  for (const auto& line :
       GrepFile(coord.log_path(), {"QUARANTINED", "failed", "rolled back", "fail Verify"}, 3)) {
    notes.push_back(fmt::format("{}: coordinator: {}", what, line));
  }
  if (errors + refused > 0) {
    notes.push_back(fmt::format("{}: {} RPC errors, {} workers refused; first: {}", what, errors,
                                refused, first_error));
  }
  // Jobs dropped at a heartbeat (no longer wanted: the campaign ended, or
  // the lease lapsed and went elsewhere) and submissions of jobs already
  // done are normal at a campaign's end; many mean lapses.
  notes.push_back(
      fmt::format("{}: RSS {:.0f} MB fresh, {:.0f} MB with the idle fleet; {} jobs dropped at a "
                  "heartbeat, {} submissions not needed; {} of {} jobs captured late, {} "
                  "verdicts computed live",
                  what, rss_fresh, rss_idle, abandoned, repeated, cap.late_captures(),
                  cap.jobs_captured(), cap.live_verdicts()));
  std::error_code ec;
  fs::remove_all(dir, ec);
  return true;
}

std::string DefaultCoordinator() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return (self.parent_path() / "foundry-coordinator").string();
}

}  // namespace

int main(int argc, char** argv) {
  foundry::TurnOffMutexDeadlockDetection();  // first: see grpc_runtime.h
  CLI::App app{"fleet_sim: the coordinator alone under N simulated workers"};
  Flags f;
  app.add_option("--workers", f.workers, "Fleet sizes, one run each")
      ->delimiter(',')
      ->check(CLI::Range(1, 10000));
  app.add_option("--family", f.families, "Families (repeatable)");
  app.add_option("--count", f.count,
                 "Puzzles per campaign (default: 100,000 secret-number, 40,000 sudoku, "
                 "10,000 others)");
  app.add_option("--seed", f.seed, "Campaign seed");
  app.add_option("--job-size", f.job_size, "Candidates per job (the coordinator's default is 2048)")
      ->check(CLI::Range(1u, 1'000'000u));
  app.add_option("--work-ms", f.work_ms, "Simulated time a worker holds each job")
      ->check(CLI::Range(0.0, 60000.0));
  app.add_option("--lease-seconds", f.lease_seconds,
                 "The coordinator's --lease-seconds; workers heartbeat every fifth of it")
      ->check(CLI::Range(0.2, 3600.0));
  app.add_option("--channels", f.channels, "gRPC connections the workers share")
      ->check(CLI::Range(1, 1024));
  app.add_option("--poll-ms", f.poll_ms, "GetCampaign interval (commit times, the end)")
      ->check(CLI::Range(1.0, 1000.0));
  app.add_option("--coordinator", f.coordinator,
                 "foundry-coordinator binary (default: beside fleet_sim)");
  app.add_option("--coordinator-arg", f.coordinator_args,
                 "Extra coordinator flag (repeatable), e.g. --probation-jobs=0");
  app.add_option("--work-dir", f.work_dir,
                 "Scratch directory (default: a new one under /tmp, removed)");
  CLI11_PARSE(app, argc, argv);
  if (f.coordinator.empty()) f.coordinator = DefaultCoordinator();
  bool own_dir = false;
  if (f.work_dir.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "fleet_sim-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) return 1;
    f.work_dir = tmpl;
    own_dir = true;
  }
  const auto started = Clock::now();
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::sort(f.workers.begin(), f.workers.end());  // the smallest fleet is the RSS baseline
  std::vector<std::string> notes;
  int status = 0;
  for (const std::string& name : f.families) {
    auto family = puzzles::FindFamily(name);
    if (!family.ok()) {
      fmt::print(stderr, "fleet_sim: {}\n", family.status().message());
      return 2;
    }
    const uint64_t count = f.count ? f.count : DefaultCount(name);
    FamilyCapture cap(*family, f.seed, f.job_size, threads);
    // The coordinator leases ~25% more jobs than it still needs, plus one,
    // at most 32 past its cursor (NextSeqLocked); any job beyond these is
    // captured late, in the run.
    const uint64_t jobs_guess = count / f.job_size + 1;
    cap.CaptureFor(count, std::min<uint64_t>(jobs_guess, 32) / 4 + 4);
    std::string error;
    // Two floors: the store's own key order (the one "÷ floor" divides by),
    // and candidate order (a plain WriteBatch, as db_bench's fillrandom).
    std::error_code ec;
    FloorResult floor, unsorted;
    for (const bool key_order : {true, false}) {
      (key_order ? floor : unsorted) =
          MeasureRocksFloor(cap.StoredBatches(count), std::string((*family)->name()),
                            cap.params_json(), f.seed, f.work_dir + "/floor", key_order, &error);
      fs::remove_all(f.work_dir + "/floor", ec);
      if (!error.empty()) fmt::print(stderr, "fleet_sim: {}\n", error);
    }
    fmt::print("\n### {}: {} puzzles, seed {}, jobs of {}, work {} ms/job, lease {} s\n\n", name,
               count, f.seed, f.job_size, f.work_ms, f.lease_seconds);
    fmt::print(
        "Captured {} jobs in {:.1f} s. RocksDB floor (batches in key order, as the store writes "
        "them): {:.1f} µs CPU per puzzle ({:.1f} writes + {:.1f} "
        "flush; {} puzzles, {} batches, {:.0f} bytes per puzzle, {:.2f} s wall).\n\n",
        cap.jobs_captured(), cap.capture_seconds(), floor.us_per_puzzle(),
        floor.write_cpu_s * 1e6 / std::max<uint64_t>(floor.puzzles, 1),
        floor.flush_cpu_s * 1e6 / std::max<uint64_t>(floor.puzzles, 1), floor.puzzles,
        floor.batches, static_cast<double>(floor.bytes) / std::max<uint64_t>(floor.puzzles, 1),
        floor.wall_s);
    fmt::print("The same writes in candidate order, not key order: {:.1f} µs CPU per puzzle.\n\n",
               unsorted.us_per_puzzle());
    fmt::print(
        "| family | workers | s | stored/s | coord µs/puzzle | ÷ floor | cores: coord / fleet_sim "
        "/ others | Lease/s | p50 / p99 ms "
        "| Heartbeat/s | p50 / p99 ms | Submit/s | p50 / p99 ms | commit p50 / p99 ms | store "
        "write p50 / p99 "
        "ms | lapsed | RSS MB | RSS MB / 1000 workers |\n");
    fmt::print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::fflush(stdout);
    RssBase base;
    for (int n : f.workers) {
      if (!RunFleet(f, cap, count, n, floor.us_per_puzzle(), f.work_dir + "/run", base, notes))
        status = 1;
    }
  }
  fmt::print(
      "\ncoord µs/puzzle: the coordinator's CPU (utime + stime, /proc) from SubmitCampaign to DONE "
      "per "
      "stored puzzle; ÷ floor: over the RocksDB floor. cores: CPU / wall of the coordinator, of "
      "fleet_sim "
      "and of everything else on the machine. Lease, Heartbeat, Submit: calls/s and latency as the "
      "workers saw them during the campaign. commit: a job's last accepted submission to the first "
      "GetCampaign poll (every {} ms) showing the cursor past it. store write: "
      "foundry_store_write_seconds "
      "(one job's Store::Commit). lapsed: foundry_lease_expirations_total. RSS: VmRSS at DONE; per "
      "1000 "
      "workers: the idle fleet's RSS against the smallest fleet's.\n\n",
      f.poll_ms);
  for (const auto& note : notes) fmt::print("- {}\n", note);
  fmt::print("\nfleet_sim: {:.0f} s in all\n",
             std::chrono::duration<double>(Clock::now() - started).count());
  if (own_dir) {
    std::error_code ec;
    fs::remove_all(f.work_dir, ec);
  }
  return status;
}
