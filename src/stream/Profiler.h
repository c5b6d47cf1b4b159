#pragma once
// texstream::stream::Profiler: per-pass GPU times from GL_TIME_ELAPSED queries, read back
// without stalling (results arrive a frame or two late). Off by default: GL allows one
// time-elapsed query at a time, so a host timing its own work must keep it off. Contexts
// without timer queries (ES without EXT_disjoint_timer_query, WebGL2 without
// EXT_disjoint_timer_query_webgl2) cannot enable it: available() is false there and
// unavailableReason() says so.
#include <texstream/gl/Query.h>

#include <map>
#include <string>
#include <vector>

namespace texstream::stream {

class Profiler {
 public:
  struct Stat {
    double lastMs = 0;    ///< the last completed frame's total for this label
    double totalMs = 0;   ///< since reset
    long long passes = 0; ///< since reset
  };
  /// Switches timing on where the context has timer queries; off otherwise.
  void setEnabled(bool on);
  /// True where the context has GPU timer queries.
  static bool available();
  /// "GPU timers not available: OpenGL ES 3.0 without EXT_disjoint_timer_query", or "".
  static std::string unavailableReason();
  bool enabled() const { return m_enabled; }
  /// Called by Pass around its work.
  void begin(const std::string& label);
  /// Passes begun on this context since it was made, timed or not: a benchmark counts the
  /// dependent passes of its work from it (each pass waits for the one before).
  long long passesBegun() const { return m_passesBegun; }
  void end();
  /// Collects the results that are ready; call once per frame. Accumulates per label.
  void collect();
  /// Marks a frame boundary: per-label lastMs restarts from here.
  void newFrame();
  const std::map<std::string, Stat>& stats() const { return m_stats; }
  void reset();

 private:
  struct Pending {
    std::string label;
    gl::TimerQuery query;
    long long frame;
  };
  bool m_enabled = false;
  bool m_open = false;
  long long m_passesBegun = 0;
  long long m_frame = 0;
  std::vector<Pending> m_pending;
  std::vector<gl::TimerQuery> m_spare;
  std::map<std::string, Stat> m_stats;
  std::map<std::string, double> m_frameAccum;
};

}  // namespace texstream::stream
