#include "bench/fleet_sim_worker.h"

#include <algorithm>

#include <fmt/format.h>

namespace foundry::fleet_sim {

namespace v1 = foundry::v1;

void SetDeadline(grpc::ClientContext& ctx) {
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
}

void Fleet::Finished() {
  std::lock_guard lock(mu_);
  if (--running_ == 0) cv_.notify_all();
}

void Fleet::StopAndWait() {
  stop = true;
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return running_ == 0; });
}

namespace {

// One SubmitResults stream: the chunks in order, then the answer; deletes
// itself when done. `chunks` must outlive it.
class SubmitCall : public grpc::ClientWriteReactor<v1::ResultChunk> {
 public:
  using Done = std::function<void(const grpc::Status&, bool accepted)>;
  SubmitCall(v1::WorkerService::Stub& stub, const std::vector<v1::ResultChunk>& chunks, Done done)
      : chunks_(chunks), done_(std::move(done)) {
    SetDeadline(ctx_);
    stub.async()->SubmitResults(&ctx_, &resp_, this);
    Next();
    StartCall();
  }
  void OnWriteDone(bool ok) override {
    if (ok) Next();  // else the server ended the call: OnDone says why
  }
  void OnDone(const grpc::Status& s) override {
    done_(s, resp_.accepted());
    delete this;
  }

 private:
  void Next() {
    if (i_ < chunks_.size()) {
      StartWrite(&chunks_[i_++]);
    } else {
      StartWritesDone();
    }
  }
  const std::vector<v1::ResultChunk>& chunks_;
  Done done_;
  grpc::ClientContext ctx_;
  v1::SubmitResponse resp_;
  size_t i_ = 0;
};

}  // namespace

SimWorker::SimWorker(Fleet& fleet, v1::WorkerService::Stub& stub, std::string id, WorkerRecord& rec)
    : fleet_(fleet), stub_(stub), id_(std::move(id)), rec_(rec) {
  lease_req_.set_worker_id(id_);
  lease_req_.set_threads(1);
  lease_req_.set_generation_fingerprint(fleet_.fingerprint);
  lease_req_.set_build("fleet_sim");
  beat_req_.set_worker_id(id_);
}

void SimWorker::Start() {
  fleet_.Started();
  Lease();
}

void SimWorker::Fail(const std::string& what) {
  if (rec_.errors++ == 0) rec_.first_error = what;
}

void SimWorker::Record(std::vector<Call>& calls) {
  const int64_t t0 = fleet_.Us(t0_);
  calls.push_back({t0, static_cast<uint32_t>(fleet_.Us(Clock::now()) - t0)});
}

void SimWorker::At(Clock::time_point t, std::function<void()> then) {
  const auto now = Clock::now();
  if (t <= now) return then();
  // A fresh alarm each time, always set from a call's callback (never from
  // the alarm's own), so the one replaced has fired already.
  alarm_ = std::make_unique<grpc::Alarm>();
  alarm_->Set(std::chrono::system_clock::now() + (t - now),
              [then = std::move(then)](bool) { then(); });
}

// LeaseLoop::Run: lease, run, repeat.
void SimWorker::Lease() {
  if (fleet_.stop.load()) return fleet_.Finished();
  lease_resp_.Clear();
  // A context serves one call; replacing it inside the previous call's
  // callback is what gRPC's own callback benchmark client does.
  ctx_ = std::make_unique<grpc::ClientContext>();
  SetDeadline(*ctx_);
  t0_ = Clock::now();
  stub_.async()->Lease(ctx_.get(), &lease_req_, &lease_resp_,
                       [this](grpc::Status s) { OnLease(s); });
}

void SimWorker::OnLease(const grpc::Status& s) {
  Record(rec_.lease);
  if (!counted_) {
    counted_ = true;
    ++fleet_.leased_once;
  }
  if (!s.ok()) {
    Fail("Lease: " + s.error_message());
    if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
        s.error_code() == grpc::StatusCode::PERMISSION_DENIED) {
      ++rec_.refused;  // refused for good: LeaseLoop gives up too
      return fleet_.Finished();
    }
    return At(Clock::now() + std::chrono::milliseconds(100), [this] { Lease(); });
  }
  if (!lease_resp_.has_job()) {
    const auto wait =
        std::chrono::milliseconds(std::max<uint32_t>(lease_resp_.retry_after_ms(), 10));
    return At(Clock::now() + wait, [this] { Lease(); });
  }
  const v1::Job& job = lease_resp_.job();
  const FamilyCapture& cap = *fleet_.capture;
  if (job.family() != cap.family().name() || job.params_json() != cap.params_json() ||
      job.end_index() - job.first_index() != cap.job_size()) {
    // Its lease lapses, as with a worker of another build.
    Fail(fmt::format("job unlike the capture: {} {} [{}, {})", job.family(), job.params_json(),
                     job.first_index(), job.end_index()));
    return Lease();
  }
  const auto start = Clock::now();
  end_ = start + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double, std::milli>(fleet_.work_ms));
  interval_ = std::chrono::milliseconds(std::max<uint32_t>(job.heartbeat_interval_ms(), 50));
  next_beat_ = start + interval_;
  At(std::min(next_beat_, end_), [this] { Tick(); });
}

// RunWithHeartbeats: a heartbeat when one is due, the submission at the end.
void SimWorker::Tick() {
  if (fleet_.stop.load()) return fleet_.Finished();
  const v1::Job& job = lease_resp_.job();
  if (Clock::now() >= end_) {
    const double seconds = fleet_.work_ms / 1000.0;
    chunks_ = job.kind() == v1::JOB_KIND_VERIFY ? fleet_.capture->VerifyAnswer(job, seconds)
                                                : fleet_.capture->GenerateAnswer(job, seconds);
    return Submit(0);
  }
  beat_req_.set_lease_id(job.lease_id());
  ctx_ = std::make_unique<grpc::ClientContext>();
  SetDeadline(*ctx_);
  t0_ = Clock::now();
  stub_.async()->Heartbeat(ctx_.get(), &beat_req_, &beat_resp_,
                           [this](grpc::Status s) { OnBeat(s); });
}

void SimWorker::OnBeat(const grpc::Status& s) {
  Record(rec_.beat);
  if ((s.ok() && !beat_resp_.keep_going()) || s.error_code() == grpc::StatusCode::NOT_FOUND) {
    ++rec_.abandoned;  // no longer wanted: drop it
    return Lease();
  }
  if (!s.ok()) Fail("Heartbeat: " + s.error_message());  // unavailable: keep going
  next_beat_ = Clock::now() + interval_;
  At(std::min(next_beat_, end_), [this] { Tick(); });
}

// SubmitWithRetry: again while the coordinator is unavailable.
void SimWorker::Submit(int attempt) {
  if (fleet_.stop.load()) return fleet_.Finished();
  t0_ = Clock::now();
  new SubmitCall(stub_, chunks_, [this, attempt](const grpc::Status& s, bool accepted) {
    OnSubmitted(s, accepted, attempt);
  });
}

void SimWorker::OnSubmitted(const grpc::Status& s, bool accepted, int attempt) {
  Record(rec_.submit);
  if (s.ok()) {
    if (accepted) {
      rec_.accepted.emplace_back(lease_resp_.job().first_index() / fleet_.capture->job_size(),
                                 fleet_.Us(Clock::now()));
    } else {
      ++rec_.repeated;
    }
    return Lease();
  }
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE && attempt < 20) {
    return At(Clock::now() + std::chrono::milliseconds(100),
              [this, attempt] { Submit(attempt + 1); });
  }
  Fail("SubmitResults: " + s.error_message());
  Lease();
}

CallStats Summarise(const std::vector<WorkerRecord>& recs, std::vector<Call> WorkerRecord::*field,
                    int64_t from_us, int64_t to_us) {
  std::vector<uint32_t> us;
  for (const auto& r : recs) {
    for (const Call& c : r.*field) {
      if (c.start_us >= from_us && c.start_us + c.us <= to_us) us.push_back(c.us);
    }
  }
  CallStats st;
  st.rate = static_cast<double>(us.size()) * 1e6 /
            static_cast<double>(std::max<int64_t>(to_us - from_us, 1));
  if (us.empty()) return st;
  std::sort(us.begin(), us.end());
  auto at = [&](double q) {
    return us[std::min(us.size() - 1, static_cast<size_t>(q * us.size()))] / 1000.0;
  };
  st.p50 = at(0.50);
  st.p99 = at(0.99);
  return st;
}

}  // namespace foundry::fleet_sim
