#pragma once
// --compare OLD.json[,OLD.json...]: this run against kept runs of the same GPU kind, row by
// row, each row against the newest kept run that has it (kept runs cover different cases:
// assets/bench/ holds one file per group of cases). Runs of
// identical code vary by several percent, so a row is flagged when it is more than
// kCompareThreshold slower or faster; a flagged row is worth repeating (the median of three
// runs decides) before a change that touches a kernel or a layout lands.
#include "Report.h"

#include <string>

namespace texstream::bench {

inline constexpr double kCompareThreshold = 0.10;

/// A kept run and the path it was read from (named in the comparison).
struct KeptRun {
  std::string path;
  Report report;
};

struct Comparison {
  std::string text;   ///< a header, one line per row found in a kept run, and (with several kept runs) their key
  int matched = 0;    ///< rows found in a kept run (same op, backend and n)
  int slower = 0;     ///< of them, more than the threshold slower now
  int faster = 0;
  /// Empty, or why the runs are not comparable as they stand (a kept run of another GPU).
  std::string warning;
};

/// `now` against `before`: time ratio now / before for every row in both.
Comparison compareReports(const Report& now, const Report& before);
/// `now` against several kept runs: each row against the newest (by date) that has it; ties
/// go to the one listed first. With more than one, each line ends with its run's number.
Comparison compareReports(const Report& now, const std::vector<KeptRun>& kept);

/// The GPU's name in a report's renderer string ("NVIDIA H200/PCIe/SSE2, OpenGL 4.6 ..." ->
/// "NVIDIA H200"), the key a kept run is chosen by.
std::string gpuKind(const std::string& renderer);

}  // namespace texstream::bench
