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

int runMain(int argc, char** argv) {
  using namespace texstream::bench;
  // The Eigen rows run on one thread (EigenPeers.h); with OpenMP linked for eigen::icCg,
  // Eigen would otherwise take every hardware thread. icCg raises the count for itself.
  Eigen::setNbThreads(1);
  BenchOptions options;
  if (auto code = parseOptions(argc, argv, options)) return *code;
  try {
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
  } catch (const std::exception& e) {
    std::cerr << "texstream-bench: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return runMain(argc, argv);
  } catch (...) {
    return texstream::app::failedMain("texstream-bench");
  }
}
