#pragma once
// texstream::stream::Profiler: per-pass GPU times from GL_TIME_ELAPSED queries, read back
// without stalling (results arrive a frame or two late). Off by default: GL allows one
// time-elapsed query at a time, so a host timing its own work must keep it off.
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
  void setEnabled(bool on) { m_enabled = on; }
  bool enabled() const { return m_enabled; }
  /// Called by Pass around its work.
  void begin(const std::string& label);
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
  long long m_frame = 0;
  std::vector<Pending> m_pending;
  std::vector<gl::TimerQuery> m_spare;
  std::map<std::string, Stat> m_stats;
  std::map<std::string, double> m_frameAccum;
};

}  // namespace texstream::stream
