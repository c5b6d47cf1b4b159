#include "PassTimes.h"

#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

namespace texstream::app {

void PassTimes::record() {
  const stream::Profiler& profiler = stream::Runtime::current().profiler();
  std::map<std::string, double> passes;
  if (profiler.enabled())
    for (const auto& [label, stats] : profiler.stats()) passes[label] = stats.lastMs;
  m_steps.push_back(std::move(passes));
}

nlohmann::json PassTimes::json() const {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& passes : m_steps) steps.push_back(passes);
  return steps;
}

}  // namespace texstream::app
