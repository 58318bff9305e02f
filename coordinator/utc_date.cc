#include "coordinator/utc_date.h"

#include <fmt/format.h>

#include "common/quote.h"

namespace foundry::coordinator {

Result<std::string> UtcDay(std::string_view date, std::chrono::system_clock::time_point now) {
  using namespace std::chrono;
  if (date.empty()) {
    const year_month_day today{floor<days>(now)};
    return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(today.year()),
                       static_cast<unsigned>(today.month()), static_cast<unsigned>(today.day()));
  }
  const auto refuse = [date] {
    return Status::InvalidArgument(fmt::format(
        "date must be a day as YYYY-MM-DD (UTC, from 1970-01-01), got '{}'", QuoteInput(date)));
  };
  if (date.size() != 10 || date[4] != '-' || date[7] != '-') return refuse();
  const auto number = [date](size_t at, size_t n, int& out) {
    out = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (date[i] < '0' || date[i] > '9') return false;
      out = out * 10 + (date[i] - '0');
    }
    return true;
  };
  int y = 0, m = 0, d = 0;
  if (!number(0, 4, y) || !number(5, 2, m) || !number(8, 2, d)) return refuse();
  const year_month_day day{year{y}, month{static_cast<unsigned>(m)},
                           std::chrono::day{static_cast<unsigned>(d)}};
  if (y < 1970 || !day.ok()) return refuse();
  // A day's pick is drawn and remembered on the first call; a later day
  // would be drawn from a family that has not finished growing, and any
  // caller could make the store remember thousands of days ahead. Tomorrow
  // is allowed: it is already today for players east of UTC.
  const sys_days tomorrow = floor<days>(now) + days{1};
  if (sys_days{day} > tomorrow) {
    return Status::InvalidArgument(fmt::format(
        "date '{}' is after tomorrow (UTC): a puzzle of the day is drawn on its day", date));
  }
  return std::string(date);
}

}  // namespace foundry::coordinator
