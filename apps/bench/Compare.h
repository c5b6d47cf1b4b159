#pragma once
// --compare OLD.json: this run against a kept run of the same GPU kind, row by row. Runs of
// identical code vary by several percent, so a row is flagged when it is more than
// kCompareThreshold slower or faster; a flagged row is worth repeating (the median of three
// runs decides) before a change that touches a kernel or a layout lands.
#include "Report.h"

#include <string>

namespace texstream::bench {

inline constexpr double kCompareThreshold = 0.10;

struct Comparison {
  std::string text;   ///< a header and one line per row found in both runs
  int matched = 0;    ///< rows in both (same op, backend and n)
  int slower = 0;     ///< of them, more than the threshold slower now
  int faster = 0;
  /// Empty, or why the runs are not comparable as they stand (another GPU or driver).
  std::string warning;
};

/// `now` against `before`: time ratio now / before for every row in both.
Comparison compareReports(const Report& now, const Report& before);

/// The GPU's name in a report's renderer string ("NVIDIA H200/PCIe/SSE2, OpenGL 4.6 ..." ->
/// "NVIDIA H200"), the key a kept run is chosen by.
std::string gpuKind(const std::string& renderer);

}  // namespace texstream::bench
