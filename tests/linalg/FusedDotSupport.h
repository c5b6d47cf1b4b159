#pragma once
// Helpers of the fused product-and-dot tests (bcrs_apply_and_dot.cpp,
// banded_apply_and_dot.cpp): an epilogue that stores the dot product, and an operator that
// takes LinearOperator's unfused applyAndDot (the product, then a reduction).
#include <texstream/linalg/LinearOperator.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <string>

namespace texstream::test {

/// The epilogue that writes the dot product into `out`.
inline stream::Epilogue storeDot(stream::Scalar& out) {
  static const bool registered = (stream::registerKernelSource(
      "test/fused_store_dot", "void epilogue(float value) { imageStore(EPILOGUE_IMAGE0, ivec2(0), vec4(value)); }\n"), true);
  (void)registered;
  return {"test/fused_store_dot.glsl", [&out](stream::Pass& p) { p.output(out); }};
}

/// The matrix through LinearOperator's own applyAndDot (product, then a reduction).
class Unfused : public linalg::LinearOperator {
 public:
  explicit Unfused(const linalg::LinearOperator& a) : m_a(&a) {}
  void apply(const stream::Vector& x, stream::Vector& y) const override { m_a->apply(x, y); }
  void diagonal(stream::Vector& d) const override { m_a->diagonal(d); }
  std::size_t rows() const override { return m_a->rows(); }
  std::size_t cols() const override { return m_a->cols(); }
  const std::string& name() const override { return m_a->name(); }
  double bytesPerApply() const override { return m_a->bytesPerApply(); }
  double flopsPerApply() const override { return m_a->flopsPerApply(); }

 private:
  const linalg::LinearOperator* m_a;
};

}  // namespace texstream::test
