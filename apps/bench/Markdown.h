#pragma once
// --markdown: a results JSON as the markdown table of the README's performance section.
#include "Report.h"

#include <string>

namespace texstream::bench {

/// Header lines (renderer, date, preset) and one table row per result: ms, GB/s, its
/// ratio to its ceiling (fragment rows: bytes written against the fill ceiling) and its
/// speed relative to its peer on the same data.
std::string markdownReport(const Report& report);

}  // namespace texstream::bench
