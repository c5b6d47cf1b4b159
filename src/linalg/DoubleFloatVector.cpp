#include <texstream/linalg/DoubleFloatVector.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Pass.h>

#include <cmath>
#include <limits>

namespace texstream::linalg {

DoubleFloatVector::DoubleFloatVector(std::size_t n, const std::string& name)
    : DoubleFloatVector(stream::Layout::forSize(n), name) {}

DoubleFloatVector::DoubleFloatVector(const stream::Layout& layout, const std::string& name)
    : m_name(name), m_hi(layout, name + ".hi"), m_lo(layout, name + ".lo") {}

DoubleFloatVector DoubleFloatVector::temporary(const stream::Layout& layout, const std::string& name) {
  return DoubleFloatVector(name, stream::Vector::temporary(layout, name + ".hi"),
                           stream::Vector::temporary(layout, name + ".lo"));
}

void DoubleFloatVector::upload(std::span<const double> values) {
  if (values.size() != size()) {
    throw gl::Error("DoubleFloatVector(\"" + m_name + "\").upload: " + std::to_string(values.size()) +
                    " values given, the vector n = " + std::to_string(size()));
  }
  std::vector<float> hi(values.size()), lo(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (!std::isfinite(v) || std::abs(v) > double(std::numeric_limits<float>::max())) {
      throw gl::Error("DoubleFloatVector(\"" + m_name + "\").upload: element " + std::to_string(i) + " = " +
                      std::to_string(v) + " is not a finite value within float range");
    }
    hi[i] = float(v);
    lo[i] = float(v - double(hi[i]));
  }
  m_hi.upload(std::span<const float>(hi));
  m_lo.upload(std::span<const float>(lo));
}

std::vector<double> DoubleFloatVector::download() const {
  const stream::Vector* both[] = {&m_hi, &m_lo};
  const auto parts = stream::downloadAll(both);
  std::vector<double> out(size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = double(parts[0][i]) + double(parts[1][i]);
  return out;
}

void DoubleFloatVector::setZero() {
  m_hi.setZero();
  m_lo.setZero();
}

void DoubleFloatVector::assign(const stream::Vector& v) {
  gl::StateGuard guard;
  stream::requireSameLayout("DoubleFloatVector::assign", m_hi, v);
  linalg::copy(v, m_hi);
  m_lo.setZero();
}

void DoubleFloatVector::add(const stream::Vector& c) {
  gl::StateGuard guard;
  stream::requireSameLayout("DoubleFloatVector::add", m_hi, c);
  stream::Pass("linalg/double_float_add")
      .label("DoubleFloatVector::add")
      .input("u_hi", m_hi)
      .input("u_lo", m_lo)
      .input("u_c", c)
      .output(m_hi)
      .output(m_lo)
      .run();
}

}  // namespace texstream::linalg
