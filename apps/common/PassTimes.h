#pragma once
// texstream::app::PassTimes: the GPU time of every profiled pass, step by step, for a demo's
// JSON report: "pass_ms" holds one {label: ms} object a step, each the profiler's latest
// completed time of the pass (stream::Profiler, --profile); an empty object for a step run
// while the profiler was off.
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace texstream::app {

class PassTimes {
 public:
  /// Records this step's times (a current context's profiler).
  void record();
  /// The steps' records, oldest first.
  nlohmann::json json() const;

 private:
  std::vector<std::map<std::string, double>> m_steps;
};

}  // namespace texstream::app
