#pragma once
// texstream::gl::TimerQuery: move-only GL_TIME_ELAPSED query (desktop core; ES through
// EXT_disjoint_timer_query: ask Capabilities::timerQueries before making one). Results are
// read without stalling: resultAvailable() first, then resultNanoseconds().
#include <texstream/gl/ContextRecord.h>

#include <cstdint>

namespace texstream::gl {

class TimerQuery {
 public:
  TimerQuery();
  ~TimerQuery();
  TimerQuery(TimerQuery&& other) noexcept;
  TimerQuery& operator=(TimerQuery&& other) noexcept;
  TimerQuery(const TimerQuery&) = delete;
  TimerQuery& operator=(const TimerQuery&) = delete;

  unsigned int id() const { return m_id; }
  void begin();
  void end();
  bool resultAvailable() const;
  /// Blocks until the result is there.
  std::uint64_t resultNanoseconds() const;

 private:
  unsigned int m_id = 0;
  ObjectOwner m_owner;  // the context (GL never shares queries)
};

/// ES only: true when the GPU reported a disjoint event since the last call, which makes
/// timer results taken across it meaningless (EXT_disjoint_timer_query). False on desktop.
bool timerResultsDisjoint();

}  // namespace texstream::gl
