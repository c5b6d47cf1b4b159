#include <texstream/stream/Profiler.h>

#include <texstream/stream/Runtime.h>

#include <algorithm>

namespace texstream::stream {

bool Profiler::available() { return Runtime::current().caps().timerQueries; }

std::string Profiler::unavailableReason() {
  const gl::Capabilities& caps = Runtime::current().caps();
  if (caps.timerQueries) return "";
#ifdef __EMSCRIPTEN__
  // The browser names the extension after WebGL2 (ES contexts elsewhere after ES).
  const char* missing = " without EXT_disjoint_timer_query_webgl2 (WebGL2)";
#else
  const char* missing = caps.es ? " without EXT_disjoint_timer_query" : " without timer queries";
#endif
  return "GPU timers not available: " + caps.apiName() + missing +
         (caps.disabled.empty() ? "" : " (TEXSTREAM_DISABLE_FEATURES=" + caps.disabled + ")");
}

void Profiler::setEnabled(bool on) { m_enabled = on && available(); }

void Profiler::begin(const std::string& label) {
  ++m_passesBegun;
  if (!m_enabled || m_open) return;
  gl::TimerQuery q;
  if (!m_spare.empty()) {
    q = std::move(m_spare.back());
    m_spare.pop_back();
  }
  q.begin();
  m_pending.push_back({label, std::move(q), m_frame});
  m_open = true;
}

void Profiler::end() {
  if (!m_open) return;
  m_pending.back().query.end();
  m_open = false;
}

void Profiler::collect() {
  if (!m_pending.empty() && gl::timerResultsDisjoint()) {
    // The GPU changed frequency or lost its context: every result in flight is void.
    for (std::size_t i = 0; i + (m_open ? 1 : 0) < m_pending.size(); ++i) m_spare.push_back(std::move(m_pending[i].query));
    m_pending.erase(m_pending.begin(), m_pending.end() - (m_open ? 1 : 0));
    return;
  }
  // Results arrive in submission order; stop at the first that is not ready.
  std::size_t done = 0;
  for (; done < m_pending.size(); ++done) {
    Pending& p = m_pending[done];
    if (m_open && done + 1 == m_pending.size()) break;
    if (!p.query.resultAvailable()) break;
    const double ms = double(p.query.resultNanoseconds()) * 1e-6;
    Stat& s = m_stats[p.label];
    s.totalMs += ms;
    s.passes += 1;
    m_frameAccum[p.label] += ms;
    m_spare.push_back(std::move(p.query));
  }
  m_pending.erase(m_pending.begin(), m_pending.begin() + std::ptrdiff_t(done));
}

void Profiler::newFrame() {
  collect();
  for (auto& [label, stat] : m_stats) {
    auto it = m_frameAccum.find(label);
    stat.lastMs = it == m_frameAccum.end() ? 0.0 : it->second;
  }
  m_frameAccum.clear();
  ++m_frame;
}

void Profiler::reset() {
  m_stats.clear();
  m_frameAccum.clear();
}

}  // namespace texstream::stream
