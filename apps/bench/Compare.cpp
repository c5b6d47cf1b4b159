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

Comparison compareReports(const Report& now, const Report& before) { return compareReports(now, {KeptRun{"", before}}); }

Comparison compareReports(const Report& now, const std::vector<KeptRun>& kept) {
  Comparison c;
  for (const KeptRun& k : kept) {
    if (gpuKind(now.renderer) == gpuKind(k.report.renderer)) continue;
    if (!c.warning.empty()) c.warning += "; ";
    c.warning += (k.path.empty() ? std::string("the kept run") : k.path) + " is of another GPU (" +
                 gpuKind(k.report.renderer) + ", this one " + gpuKind(now.renderer) + "): compare runs of one kind";
  }
  const bool several = kept.size() > 1;
  char line[320];
  std::snprintf(line, sizeof line, "%-48s %-12s %10s %12s %12s %8s%s\n", "op", "backend", "n", "ms now", "ms before",
                "ratio", several ? "  run" : "");
  c.text = line;
  for (const Row& r : now.rows) {
    const Row* old = nullptr;
    std::size_t from = 0;
    for (std::size_t k = 0; k < kept.size(); ++k) {
      for (const Row& o : kept[k].report.rows) {
        if (o.op != r.op || o.backend != r.backend || o.n != r.n) continue;
        // ISO 8601 dates of one form order as strings.
        if (!old || kept[k].report.date > kept[from].report.date) old = &o, from = k;
      }
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
    std::snprintf(line, sizeof line, "%-48s %-12s %10zu %12.4f %12.4f %8.3f%s", r.op.c_str(), r.backend.c_str(), r.n,
                  r.ms, old->ms, ratio, flag);
    c.text += line;
    if (several) c.text += "  [" + std::to_string(from + 1) + "]";
    c.text += "\n";
  }
  if (several) {
    for (std::size_t k = 0; k < kept.size(); ++k)
      c.text += "[" + std::to_string(k + 1) + "] " + kept[k].path + " (" + kept[k].report.date + ")\n";
  }
  return c;
}

}  // namespace texstream::bench
