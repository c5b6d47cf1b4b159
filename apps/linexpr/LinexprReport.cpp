#include "LinexprReport.h"

#include <set>

namespace texstream::linexpr {

std::vector<codegen::CostSample> thinHistory(const std::vector<codegen::CostSample>& h, std::size_t limit) {
  if (h.size() <= limit) return h;
  std::set<std::size_t> keep{0, h.size() - 1};
  for (std::size_t k = 1; k < h.size(); ++k) {
    if (h[k].best != h[k - 1].best) keep.insert(k);
  }
  const std::size_t spare = limit > keep.size() ? limit - keep.size() : 0;
  for (std::size_t k = 0; k < spare; ++k) keep.insert(k * (h.size() - 1) / std::max<std::size_t>(spare, 1));
  std::vector<codegen::CostSample> out;
  for (std::size_t k : keep) out.push_back(h[k]);
  return out;
}

namespace {

nlohmann::json costJson(const codegen::SimdCost& c) {
  return {{"total", c.total},
          {"multiplication", c.multiplication},
          {"summation", c.summation},
          {"rowMajorTerms", c.rowMajorTerms},
          {"columnMajorTerms", c.columnMajorTerms},
          {"efficiency", c.efficiency()}};
}

}  // namespace

nlohmann::json toJson(const Outcome& o) {
  nlohmann::json j;
  j["tool"] = "texstream-linexpr";
  j["method"] = "Bajaj, Ihm, Min & Oh 2004, SIMD optimization of linear expressions";
  if (o.isExample) {
    j["example"] = o.name;
  } else {
    j["matrix"] = o.name;
    if (!o.bPath.empty()) j["b"] = o.bPath;
  }
  j["summary"] = o.summary;
  j["gaussSeidel"] = o.gaussSeidel;
  j["size"] = o.size;
  j["paddedSize"] = o.paddedSize;
  j["nonzeros"] = o.nonzeros;
  j["operations"] = o.before.operations;
  j["costBefore"] = o.before.total;
  j["costAfter"] = o.after.total;
  j["efficiencyBefore"] = o.before.efficiency();
  j["efficiencyAfter"] = o.after.efficiency();
  j["lowerBound"] = o.run.lowerBound;
  j["before"] = costJson(o.before);
  j["after"] = costJson(o.after);
  if (o.paperBefore) j["paper"] = {{"costBefore", *o.paperBefore}, {"costAfter", *o.paperAfter}};
  j["instructions"] = {{"mul", o.instructions.mul},
                       {"mad", o.instructions.mad},
                       {"dp4", o.instructions.dp4},
                       {"add", o.instructions.add},
                       {"mov", o.instructions.mov},
                       {"clear", o.instructions.zero},
                       {"arithmetic", o.instructions.arithmetic()}};
  j["permutation"] = o.run.permutation;
  j["schedule"] = {{"seed", o.schedule.seed},
                   {"iterations", o.schedule.iterations},
                   {"restarts", o.schedule.restarts},
                   {"movesPerTemperature", o.schedule.movesPerTemperature},
                   {"initialTemperature", o.schedule.initialTemperature},
                   {"finalTemperature", o.schedule.finalTemperature},
                   {"boltzmann", o.schedule.boltzmann},
                   {"stopAtCost", o.schedule.stopAtCost}};
  j["search"] = {{"iterations", o.run.iterations},       {"accepted", o.run.accepted},         {"runs", o.run.runs},
                 {"bestIteration", o.run.bestIteration}, {"stoppedEarly", o.run.stoppedEarly}, {"seconds", o.seconds}};
  nlohmann::json history = nlohmann::json::array();
  for (const auto& s : thinHistory(o.run.history, 1000)) {
    history.push_back({{"run", s.run},
                       {"iteration", s.iteration},
                       {"temperature", s.temperature},
                       {"cost", s.cost},
                       {"best", s.best}});
  }
  j["history"] = std::move(history);
  return j;
}

}  // namespace texstream::linexpr
