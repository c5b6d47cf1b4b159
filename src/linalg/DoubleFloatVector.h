#pragma once
// texstream::linalg::DoubleFloatVector: n values of about 48 significant bits on the GPU,
// each the unevaluated sum hi + lo of two floats (Dekker 1971), held as two texture
// vectors of one layout. It is what mixed-precision refinement keeps its solution and
// right-hand side in (Göddeke, Strzodka & Turek 2007, §3): the solution takes float
// corrections (add), and LinearOperator::residualInDoubleFloat forms b - A x from the pairs.
#include <texstream/stream/Vector.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace texstream::linalg {

class DoubleFloatVector {
 public:
  DoubleFloatVector() = default;
  /// n zeros in Layout::forSize(n).
  DoubleFloatVector(std::size_t n, const std::string& name);
  DoubleFloatVector(const stream::Layout& layout, const std::string& name);
  /// A pair from the texture pool (stream::Vector::temporary): contents undefined, the
  /// textures go back to the pool with the object. For scratch pairs inside an operation.
  static DoubleFloatVector temporary(const stream::Layout& layout, const std::string& name);

  std::size_t size() const { return m_hi.size(); }
  const stream::Layout& layout() const { return m_hi.layout(); }
  const std::string& name() const { return m_name; }
  /// The head: the values rounded to float (usable wherever a float vector is).
  const stream::Vector& hi() const { return m_hi; }
  /// The tail: value - hi, rounded to float.
  const stream::Vector& lo() const { return m_lo; }
  /// For passes that write the pairs (Pass::output), e.g. permutations.
  stream::Vector& mutableHi() { return m_hi; }
  stream::Vector& mutableLo() { return m_lo; }

  /// Exactly size() finite values whose magnitudes fit a float; throws gl::Error naming the
  /// vector and the first offending element otherwise.
  void upload(std::span<const double> values);
  /// hi + lo of each element, in double.
  std::vector<double> download() const;
  void setZero();
  /// this = v exactly (hi = v, lo = 0) for a float vector of the same layout.
  void assign(const stream::Vector& v);
  /// this += c for a float vector c of the same layout, in double-float arithmetic.
  void add(const stream::Vector& c);

 private:
  DoubleFloatVector(std::string name, stream::Vector hi, stream::Vector lo)
      : m_name(std::move(name)), m_hi(std::move(hi)), m_lo(std::move(lo)) {}
  std::string m_name;
  stream::Vector m_hi, m_lo;
};

}  // namespace texstream::linalg
