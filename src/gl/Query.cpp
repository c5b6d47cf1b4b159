#include <texstream/gl/Query.h>

#include <texstream/gl/Capabilities.h>

#include <glad/gl.h>

#include <utility>

namespace texstream::gl {

TimerQuery::TimerQuery() : m_owner(ObjectOwner::currentContext()) { glGenQueries(1, &m_id); }
TimerQuery::~TimerQuery() { m_owner.release(ObjectKind::Query, m_id); }
TimerQuery::TimerQuery(TimerQuery&& o) noexcept : m_id(std::exchange(o.m_id, 0)), m_owner(std::move(o.m_owner)) {}
TimerQuery& TimerQuery::operator=(TimerQuery&& o) noexcept {
  if (this != &o) {
    m_owner.release(ObjectKind::Query, m_id);
    m_id = std::exchange(o.m_id, 0);
    m_owner = std::move(o.m_owner);
  }
  return *this;
}
void TimerQuery::begin() { glBeginQuery(GL_TIME_ELAPSED, m_id); }
void TimerQuery::end() { glEndQuery(GL_TIME_ELAPSED); }
bool TimerQuery::resultAvailable() const {
  GLuint available = 0;
  glGetQueryObjectuiv(m_id, GL_QUERY_RESULT_AVAILABLE, &available);  // core in desktop 3.3 and ES 3.0
  return available != 0;
}
std::uint64_t TimerQuery::resultNanoseconds() const {
  GLuint64 ns = 0;
  // Desktop core; ES has only EXT_disjoint_timer_query's entry point.
  if (glGetQueryObjectui64v) {
    glGetQueryObjectui64v(m_id, GL_QUERY_RESULT, &ns);
  } else {
    glGetQueryObjectui64vEXT(m_id, GL_QUERY_RESULT, &ns);
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
