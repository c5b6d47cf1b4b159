#include "Markdown.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace texstream::bench {

namespace {
std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
// Three significant digits at any magnitude: 0.0123, 1.23, 123, 12300.
std::string significant(double v) {
  if (!std::isfinite(v) || v == 0) return v == 0 ? "0" : "-";
  const int magnitude = int(std::floor(std::log10(std::abs(v))));
  return fixed(v, std::max(0, 2 - magnitude));
}
std::string shortName(const std::string& op) {
  const std::string peer = "peer.";
  return op.rfind(peer, 0) == 0 ? op.substr(peer.size()) : op;
}
std::string escape(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  return s;
}
}  // namespace

std::string markdownReport(const Report& report) {
  std::ostringstream md;
  md << "Renderer: " << escape(report.renderer.empty() ? "unknown" : report.renderer) << "  \n";
  if (!report.cudaDevice.empty()) md << "CUDA device: " << escape(report.cudaDevice) << "  \n";
  md << "Date: " << (report.date.empty() ? "unknown" : report.date);
  if (!report.preset.empty()) md << ", preset `" << report.preset << "`";
  md << "\n\n";
  md << "| op | backend | n | ms | GB/s | GB/s written | GFLOP/s | of ceiling | of floor | vs peer | max rel err |\n";
  md << "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n";
  bool anyFragment = false;
  for (const Row& r : report.rows) {
    anyFragment = anyFragment || backendKind(r.backend) == "fragment";
    std::string ceiling = "-";
    if (r.op == r.ceiling) ceiling = "(ceiling)";
    else if (r.ratio) ceiling = fixed(100 * *r.ratio, 0) + "% of " + shortName(r.ceiling);
    const std::string floor = r.ofFloor() ? fixed(100 * *r.ofFloor(), 0) + "%" : "-";
    std::string peer = "-";
    if (r.peerSpeedup) peer = significant(*r.peerSpeedup) + "× " + shortName(r.peer);
    char err[32];
    std::snprintf(err, sizeof err, "%.1e", r.maxRelErr);
    md << "| " << escape(r.op) << " | " << r.backend << " | " << r.n << " | " << significant(r.ms) << " | "
       << significant(r.gbps()) << " | " << significant(r.gbpsWritten()) << " | "
       << (r.flops > 0 ? significant(r.gflops()) : "-")
 << " | " << ceiling << " | " << floor << " | " << peer << " | " << (std::isfinite(r.maxRelErr) ? err : "NaN")
       << (r.ok() ? "" : " (fail)") << " |\n";
  }
  md << "\n";
  md << "ms: median time per repetition. GB/s: bytes read + written per repetition / ms. "
        "Of ceiling: against the ceiling row of the same backend in the same run";
  if (anyFragment) md << " (fragment rows: bytes written against the write-only fill)";
  md << ". Of floor: the least time the row could take in the same run (the larger of its bytes at the "
        "ceiling's rate and its dependent passes times one pass's latency) / ms. vs peer: peer ms / texstream ms on the same data in the same run (above 1: texstream is faster). "
        "Max rel err: max |result - CPU double reference| / max |reference|.\n";
  return md.str();
}

}  // namespace texstream::bench
