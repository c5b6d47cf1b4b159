#pragma once
// texstream::app::column: one member of every record, in order: a demo keeps each step's
// stats whole and reads the JSON report's per-step series (and its plots) from them.
//   out["max_speed"] = column(m_steps, &fluid::StepStats::maxSpeed);
#include <vector>

namespace texstream::app {

template <class Record, class T>
std::vector<T> column(const std::vector<Record>& records, T Record::*member) {
  std::vector<T> values;
  values.reserve(records.size());
  for (const Record& r : records) values.push_back(r.*member);
  return values;
}

}  // namespace texstream::app
