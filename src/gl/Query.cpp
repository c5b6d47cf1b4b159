#include <texstream/gl/Query.h>

#include <texstream/gl/Capabilities.h>

#include <glad/gl.h>

#include <utility>

namespace texstream::gl {

TimerQuery::TimerQuery() {
  ObjectOwner owner = ObjectOwner::currentContext();
  GLuint id = 0;
  glGenQueries(1, &id);
  m_id = ObjectName(std::move(owner), ObjectKind::Query, id);
}
void TimerQuery::begin() { glBeginQuery(GL_TIME_ELAPSED, m_id.get()); }
void TimerQuery::end() { glEndQuery(GL_TIME_ELAPSED); }
bool TimerQuery::resultAvailable() const {
  GLuint available = 0;
  glGetQueryObjectuiv(m_id.get(), GL_QUERY_RESULT_AVAILABLE, &available);  // core in desktop 3.3 and ES 3.0
  return available != 0;
}
std::uint64_t TimerQuery::resultNanoseconds() const {
  GLuint64 ns = 0;
  // Desktop core; ES has only EXT_disjoint_timer_query's entry point.
  if (glGetQueryObjectui64v) {
    glGetQueryObjectui64v(m_id.get(), GL_QUERY_RESULT, &ns);
  } else {
    glGetQueryObjectui64vEXT(m_id.get(), GL_QUERY_RESULT, &ns);
  }
  return ns;
}

bool timerResultsDisjoint() {
  if (!capabilities().es) return false;
  // EXT_disjoint_timer_query: a frequency change or context loss invalidates results.
  GLint disjoint = 0;
  glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
  return disjoint != 0;
}

}  // namespace texstream::gl
