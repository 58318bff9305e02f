// Progress: the live progress line of `foundry run` and `campaign watch`.
//
// On a terminal it redraws one line ("[#####.....] 52.1%  52,100/100,000
// 24,310/s  ETA 2s"); otherwise it prints a plain line every few seconds so
// that logs stay readable, and always the last state, so that a log ends
// with the count the campaign reached.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "foundry/v1/campaign.pb.h"

namespace foundry::cli {

class Progress {
 public:
  explicit Progress(std::FILE* out);

  // Shows `c`'s progress (rate from its counters between calls) and, while
  // it runs, its message (why it waits, when it does).
  void Update(const foundry::v1::Campaign& c);
  // Ends the progress line.
  void Finish();

 private:
  std::FILE* out_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
  bool drawn_ = false;
};

// The seconds a campaign ran: from its creation to its end by its own
// timestamps once it has ended, so that a rate over them does not depend on
// how often the caller polled (a 3 s campaign watched every 250 ms would
// otherwise look up to 8% slower); `fallback` (the caller's clock) while it
// runs or when the timestamps span no time (an import). A campaign resumed
// after a coordinator restart counts the time it was down.
double CampaignSeconds(const foundry::v1::Campaign& c, double fallback);

// The final summary of a campaign: state, counters, and the rate stored ÷
// CampaignSeconds(c, fallback_seconds).
std::string CampaignSummary(const foundry::v1::Campaign& c, double fallback_seconds);

// At the end of a watched campaign: the CampaignSummary line on stdout and,
// when the campaign did not finish DONE, its reason on stderr as
// "foundry: <message>" (errors go to stderr, the summary stays on stdout).
void ReportCampaignEnd(const foundry::v1::Campaign& c, double seconds);

// "running", "done", "cancelled", "exhausted" or "failed".
std::string StateName(foundry::v1::CampaignState state);

// "12,345,678".
std::string Grouped(uint64_t n);

}  // namespace foundry::cli
