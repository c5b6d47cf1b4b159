#pragma once
// texstream::gl::TimerQuery: move-only GL_TIME_ELAPSED query (desktop core; ES through
// EXT_disjoint_timer_query: ask Capabilities::timerQueries before making one). Results are
// read without stalling: resultAvailable() first, then resultNanoseconds().
#include <texstream/gl/ObjectName.h>

#include <cstdint>

namespace texstream::gl {

class TimerQuery {
 public:
  TimerQuery();

  unsigned int id() const { return m_id.get(); }
  void begin();
  void end();
  bool resultAvailable() const;
  /// Blocks until the result is there.
  std::uint64_t resultNanoseconds() const;

 private:
  ObjectName m_id;  // owned by the context (GL never shares queries)
};

/// ES only: true when the GPU reported a disjoint event since the last call, which makes
/// timer results taken across it meaningless (EXT_disjoint_timer_query). False on desktop.
bool timerResultsDisjoint();

}  // namespace texstream::gl
