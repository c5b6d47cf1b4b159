#pragma once
// The JSON report of texstream-linexpr (--json): what was optimised, the cost before and
// after (§2.3.1 terms), operations and efficiency (Table 2: a, b, c, d), the instruction
// counts of the generated code, the permutation, the schedule and the cost history.
#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/SimdCost.h>
#include <texstream/codegen/SimdProgram.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace texstream::linexpr {

struct Outcome {
  std::string name;  ///< example name or matrix path
  std::string summary;
  std::string bPath;
  bool isExample = false;
  bool gaussSeidel = false;
  int size = 0, paddedSize = 0;
  std::size_t nonzeros = 0;
  codegen::SimdCost before, after;
  std::optional<int> paperBefore, paperAfter;
  codegen::AnnealingSchedule schedule;
  codegen::AnnealingRun run;
  codegen::InstructionCounts instructions;
  double seconds = 0.0;
};

/// At most `limit` samples of the history: every change of the best cost, the first and
/// last samples, and evenly spaced ones in between.
std::vector<codegen::CostSample> thinHistory(const std::vector<codegen::CostSample>& history, std::size_t limit);

nlohmann::json toJson(const Outcome& o);

}  // namespace texstream::linexpr
