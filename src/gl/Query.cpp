#include <texstream/gl/Query.h>

#include <glad/gl.h>

#include <utility>

namespace texstream::gl {

TimerQuery::TimerQuery() { glGenQueries(1, &m_id); }
TimerQuery::~TimerQuery() {
  if (m_id) glDeleteQueries(1, &m_id);
}
TimerQuery::TimerQuery(TimerQuery&& o) noexcept : m_id(std::exchange(o.m_id, 0)) {}
TimerQuery& TimerQuery::operator=(TimerQuery&& o) noexcept {
  if (this != &o) {
    if (m_id) glDeleteQueries(1, &m_id);
    m_id = std::exchange(o.m_id, 0);
  }
  return *this;
}
void TimerQuery::begin() { glBeginQuery(GL_TIME_ELAPSED, m_id); }
void TimerQuery::end() { glEndQuery(GL_TIME_ELAPSED); }
bool TimerQuery::resultAvailable() const {
  GLint available = 0;
  glGetQueryObjectiv(m_id, GL_QUERY_RESULT_AVAILABLE, &available);
  return available != 0;
}
std::uint64_t TimerQuery::resultNanoseconds() const {
  GLuint64 ns = 0;
  glGetQueryObjectui64v(m_id, GL_QUERY_RESULT, &ns);
  return ns;
}

}  // namespace texstream::gl
