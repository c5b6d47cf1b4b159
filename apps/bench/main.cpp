// texstream-bench: see BenchOptions.h for the options, BenchCase.h for the cases and
// Report.h for the JSON it writes.
#include "BenchCase.h"
#include "BenchOptions.h"
#include "MainGuard.h"
#include "Markdown.h"
#include "Report.h"

#include <Eigen/Core>

#include <fstream>
#include <iostream>

namespace {

using namespace texstream::bench;

int run(const BenchOptions& options) {
  if (options.markdownPath) {
    std::ifstream in(*options.markdownPath);
    if (!in) throw std::runtime_error("--markdown: cannot read " + *options.markdownPath);
    Report report = Report::fromJson(nlohmann::json::parse(in));
    std::cout << markdownReport(report);
    return 0;
  }
  if (options.list) {
    for (const BenchCase& c : benchCases()) std::cout << c.name << ": " << c.summary << "\n";
    return 0;
  }
  return runBenchmark(options);
}

}  // namespace

int main(int argc, char** argv) {
  // The Eigen rows run on one thread (EigenPeers.h); with OpenMP linked for eigen::icCg,
  // Eigen would otherwise take every hardware thread. icCg raises the count for itself.
  Eigen::setNbThreads(1);
  BenchOptions options;
  return texstream::app::toolMain(
      "texstream-bench", [&] { return parseOptions(argc, argv, options); }, [&] { return run(options); });
}
