#include "Compare.h"

#include <cmath>
#include <cstdio>

namespace texstream::bench {

std::string gpuKind(const std::string& renderer) {
  const auto end = renderer.find_first_of("/,(");
  std::string kind = renderer.substr(0, end);
  while (!kind.empty() && kind.back() == ' ') kind.pop_back();
  return kind;
}

Comparison compareReports(const Report& now, const Report& before) {
  Comparison c;
  if (gpuKind(now.renderer) != gpuKind(before.renderer)) {
    c.warning = "the kept run is of another GPU (" + gpuKind(before.renderer) + ", this one " + gpuKind(now.renderer) +
                "): compare runs of one kind";
  }
  char line[320];
  std::snprintf(line, sizeof line, "%-48s %-12s %10s %12s %12s %8s\n", "op", "backend", "n", "ms now", "ms before",
                "ratio");
  c.text = line;
  for (const Row& r : now.rows) {
    const Row* old = nullptr;
    for (const Row& o : before.rows) {
      if (o.op == r.op && o.backend == r.backend && o.n == r.n) old = &o;
    }
    if (!old || !(r.ms > 0) || !(old->ms > 0)) continue;
    ++c.matched;
    const double ratio = r.ms / old->ms;
    const char* flag = "";
    if (ratio > 1 + kCompareThreshold) {
      flag = "  SLOWER";
      ++c.slower;
    } else if (ratio < 1 / (1 + kCompareThreshold)) {
      flag = "  faster";
      ++c.faster;
    }
    std::snprintf(line, sizeof line, "%-48s %-12s %10zu %12.4f %12.4f %8.3f%s\n", r.op.c_str(), r.backend.c_str(), r.n,
                  r.ms, old->ms, ratio, flag);
    c.text += line;
  }
  return c;
}

}  // namespace texstream::bench
