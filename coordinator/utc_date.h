// Calendar days in UTC as the puzzle of the day names them: "YYYY-MM-DD".
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "common/status.h"

namespace foundry::coordinator {

// `date` when it is a real day "YYYY-MM-DD" from 1970-01-01 to the day
// after `now`'s UTC day (2023-02-29 is not a day); the UTC day of `now` when
// it is empty. Otherwise InvalidArgument naming `date` and the form or the
// limit.
Result<std::string> UtcDay(std::string_view date, std::chrono::system_clock::time_point now);

}  // namespace foundry::coordinator
