#include "Report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace texstream::bench {

namespace {
using OrderedJson = nlohmann::ordered_json;
OrderedJson number(double v) { return std::isfinite(v) ? OrderedJson(v) : OrderedJson(nullptr); }
OrderedJson optionalNumber(const std::optional<double>& v) { return v ? number(*v) : OrderedJson(nullptr); }
OrderedJson optionalString(const std::string& s) { return s.empty() ? OrderedJson(nullptr) : OrderedJson(s); }
double readNumber(const nlohmann::json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}
std::string readString(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

std::string backendKind(const std::string& backend) { return backend.substr(0, backend.find('@')); }

const char* ceilingFor(const std::string& backendName) {
  const std::string backend = backendKind(backendName);
  if (backend == "fragment") return kFragmentCeiling;
  if (backend == "compute") return kComputeCeiling;
  if (backend == "cuda") return kCudaCeiling;
  if (backend == "cpu") return kCpuCeiling;
  return "";
}

std::string passLatencyFor(const std::string& backendName) {
  const std::string backend = backendKind(backendName);
  return backend == "fragment" || backend == "compute" ? "limits." + backend + "_pass" : std::string();
}

Row makeRow(std::string op, std::string backend, std::size_t n, const Timing& t, double bytes,
            double bytesWritten, double flops) {
  Row r;
  r.op = std::move(op);
  r.backend = std::move(backend);
  r.n = n;
  r.ms = t.ms;
  r.wallMs = t.wallMs;
  r.submitMs = t.submitMs;
  r.reps = t.reps;
  r.batches = t.batches;
  r.timer = t.method;
  r.bytes = bytes;
  r.bytesWritten = bytesWritten;
  r.flops = flops;
  r.passes = t.passes;
  return r;
}

const Row* Report::find(const std::string& op, const std::string& backend) const {
  for (const Row& r : rows)
    if (r.op == op && (backend.empty() || r.backend == backend)) return &r;
  return nullptr;
}

void Report::finalize() {
  for (Row& r : rows) {
    r.ceiling.clear();
    r.ratio.reset();
    const std::string ceilingOp = ceilingFor(r.backend);
    if (const Row* c = find(ceilingOp, r.backend)) {
      r.ceiling = ceilingOp;
      // The fragment path is bound by bytes written through the raster back end (GPU.md),
      // so fragment rows are judged by bytes written against the write-only fill.
      const bool fragment = backendKind(r.backend) == "fragment";
      const double mine = fragment ? r.gbpsWritten() : r.gbps();
      const double limit = fragment ? c->gbpsWritten() : c->gbps();
      if (limit > 0 && mine > 0) r.ratio = mine / limit;
    }
    r.floorMs.reset();
    if (const Row* c = find(ceilingOp, r.backend); c && c->ms > 0) {
      const bool fragment = backendKind(r.backend) == "fragment";
      const double moved = fragment ? r.bytesWritten : r.bytes, ceilingMoved = fragment ? c->bytesWritten : c->bytes;
      double floor = ceilingMoved > 0 && moved > 0 ? moved / ceilingMoved * c->ms : 0;
      const std::string passOp = passLatencyFor(r.backend);
      const Row* pass = passOp.empty() ? nullptr : find(passOp, r.backend);
      if (pass && r.passes > 0) floor = std::max(floor, r.passes * pass->ms);
      if (floor > 0) r.floorMs = floor;
    }
    // Candidates come from the run; a report read from JSON keeps the peer it names.
    std::vector<std::string> candidates = r.peerCandidates;
    if (candidates.empty() && !r.peer.empty()) candidates.push_back(r.peer);
    r.peer.clear();
    r.peerSpeedup.reset();
    for (const std::string& p : candidates) {
      const Row* peer = nullptr;
      for (const Row& q : rows)
        if (q.op == p && q.n == r.n) peer = &q;
      if (peer) {
        r.peer = p;
        if (r.ms > 0 && peer->ms > 0) r.peerSpeedup = peer->ms / r.ms;
        break;
      }
    }
  }
}

bool Report::allOk() const {
  for (const Row& r : rows)
    if (!r.ok()) return false;
  return true;
}

nlohmann::ordered_json Report::toJson() const {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const Row& r : rows) {
    nlohmann::ordered_json j;
    j["op"] = r.op;
    j["backend"] = r.backend;
    j["n"] = r.n;
    j["ms"] = number(r.ms);
    j["gbps"] = number(r.gbps());
    j["gbps_written"] = number(r.gbpsWritten());
    j["gflops"] = number(r.gflops());
    j["max_rel_err"] = number(r.maxRelErr);
    j["ok"] = r.ok();
    j["ceiling"] = optionalString(r.ceiling);
    j["ratio"] = optionalNumber(r.ratio);
    j["peer"] = optionalString(r.peer);
    j["peer_speedup"] = optionalNumber(r.peerSpeedup);
    j["wall_ms"] = number(r.wallMs);
    j["submit_ms"] = number(r.submitMs);
    j["timer"] = r.timer;
    j["reps"] = r.reps;
    j["batches"] = r.batches;
    j["bytes"] = number(r.bytes);
    j["bytes_written"] = number(r.bytesWritten);
    j["flops"] = number(r.flops);
    j["passes"] = r.passes >= 0 ? number(r.passes) : OrderedJson(nullptr);
    j["floor_ms"] = optionalNumber(r.floorMs);
    j["of_floor"] = optionalNumber(r.ofFloor());
    j["tolerance"] = number(r.tolerance);
    if (!r.note.empty()) j["note"] = r.note;
    if (!r.extras.empty()) {
      nlohmann::ordered_json extra;
      for (const auto& [key, value] : r.extras) extra[key] = number(value);
      j["extra"] = std::move(extra);
    }
    results.push_back(std::move(j));
  }
  nlohmann::ordered_json out;
  out["renderer"] = renderer;
  out["date"] = date;
  out["preset"] = preset;
  out["context"] = context;
  if (!cudaDevice.empty()) out["cuda_device"] = cudaDevice;
  out["results"] = std::move(results);
  return out;
}

Report Report::fromJson(const nlohmann::json& j) {
  Report rep;
  rep.renderer = readString(j, "renderer");
  rep.date = readString(j, "date");
  rep.preset = readString(j, "preset");
  rep.context = readString(j, "context");
  rep.cudaDevice = readString(j, "cuda_device");
  if (!j.contains("results") || !j["results"].is_array())
    throw std::invalid_argument("results JSON: no \"results\" array");
  for (const auto& e : j["results"]) {
    Row r;
    r.op = readString(e, "op");
    r.backend = readString(e, "backend");
    r.n = std::size_t(readNumber(e, "n"));
    r.ms = readNumber(e, "ms");
    r.wallMs = readNumber(e, "wall_ms", r.ms);
    r.submitMs = readNumber(e, "submit_ms", 0.0);
    r.reps = int(readNumber(e, "reps"));
    r.batches = int(readNumber(e, "batches"));
    r.timer = readString(e, "timer");
    // Bytes and flops per repetition: stored, or recovered from the rates.
    r.bytes = readNumber(e, "bytes", readNumber(e, "gbps") * r.ms * 1e6);
    r.bytesWritten = readNumber(e, "bytes_written", readNumber(e, "gbps_written") * r.ms * 1e6);
    r.flops = readNumber(e, "flops", readNumber(e, "gflops") * r.ms * 1e6);
    r.passes = readNumber(e, "passes", -1);  // floor_ms is recomputed
    r.maxRelErr = readNumber(e, "max_rel_err", NAN);
    r.tolerance = readNumber(e, "tolerance", INFINITY);
    r.note = readString(e, "note");
    r.peer = readString(e, "peer");  // ceiling, ratio and peer_speedup are recomputed
    if (e.contains("extra") && e["extra"].is_object()) {
      for (const auto& [key, value] : e["extra"].items()) r.extras.emplace_back(key, value.is_number() ? value.get<double>() : NAN);
    }
    rep.rows.push_back(std::move(r));
  }
  rep.finalize();
  return rep;
}

std::string isoDateNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

std::string formatHeader() {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-30s %-8s %11s %10s %9s %9s %9s %8s %8s %10s %s", "op", "backend", "n",
                "ms", "GB/s", "GB/s wr", "GFLOP/s", "ceiling", "floor", "max_rel", "peer");
  return buf;
}

std::string formatRow(const Row& r) {
  char ratio[32] = "-", floor[32] = "-", peer[96] = "", err[32];
  if (r.ratio) std::snprintf(ratio, sizeof ratio, "%.0f%%", 100 * *r.ratio);
  if (r.ofFloor()) std::snprintf(floor, sizeof floor, "%.0f%%", 100 * *r.ofFloor());
  if (r.peerSpeedup) std::snprintf(peer, sizeof peer, "x%.3g vs %s", *r.peerSpeedup, r.peer.c_str());
  std::snprintf(err, sizeof err, "%.1e%s", r.maxRelErr, r.ok() ? "" : "!");
  char buf[384];
  std::snprintf(buf, sizeof buf, "%-30s %-8s %11zu %10.4f %9.2f %9.2f %9.2f %8s %8s %10s %s", r.op.c_str(),
                r.backend.c_str(), r.n, r.ms, r.gbps(), r.gbpsWritten(), r.gflops(), ratio, floor, err, peer);
  return buf;
}

}  // namespace texstream::bench
