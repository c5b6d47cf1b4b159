// Krüger & Westermann §44.3.1: every vector operation is one pass over the output vector.
#include <texstream/linalg/VectorOps.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <string>

namespace texstream::linalg {

namespace {

void requireNonEmpty(const char* what, const Vector& v) {
  if (v.empty()) throw gl::Error(std::string(what) + ": vector is empty (default-constructed or moved from)");
}

/// out = a x (+ b y): the one kernel behind copy/scale/axpy/xpay/axpby/linearCombination.
void combine(const char* label, const Coefficient& a, const Vector& x, const Coefficient* b, const Vector* y,
             Vector& out) {
  stream::Pass pass("linalg/linear_combination");
  pass.label(label).input("u_x", x).coefficient("u_a", a);
  if (b) pass.define("WITH_Y").input("u_y", *y).coefficient("u_b", *b);
  pass.uniform("u_n", int(out.size())).uniform("u_width", out.layout().width()).output(out).run();
}

}  // namespace

void copy(const Vector& x, Vector& y) {
  gl::StateGuard guard;
  stream::requireSameLayout("linalg::copy", x, y);
  if (&x == &y) return;
  combine("linalg::copy", 1.0f, x, nullptr, nullptr, y);
}

void fill(Vector& y, const Coefficient& a) {
  gl::StateGuard guard;
  requireNonEmpty("linalg::fill", y);
  stream::Pass("stream/fill")
      .label("linalg::fill")
      .coefficient("u_a", a)
      .uniform("u_n", int(y.size()))
      .uniform("u_width", y.layout().width())
      .output(y)
      .run();
}

void scale(const Coefficient& a, Vector& y) {
  gl::StateGuard guard;
  requireNonEmpty("linalg::scale", y);
  combine("linalg::scale", a, y, nullptr, nullptr, y);
}

void axpy(const Coefficient& a, const Vector& x, Vector& y) {
  gl::StateGuard guard;
  stream::requireSameLayout("linalg::axpy", x, y);
  const Coefficient one(1.0f);
  combine("linalg::axpy", a, x, &one, &y, y);
}

void xpay(const Vector& x, const Coefficient& a, Vector& y) {
  gl::StateGuard guard;
  stream::requireSameLayout("linalg::xpay", x, y);
  combine("linalg::xpay", 1.0f, x, &a, &y, y);
}

void axpby(const Coefficient& a, const Vector& x, const Coefficient& b, Vector& y) {
  gl::StateGuard guard;
  stream::requireSameLayout("linalg::axpby", x, y);
  combine("linalg::axpby", a, x, &b, &y, y);
}

void linearCombination(const Coefficient& a, const Vector& x, const Coefficient& b, const Vector& y, Vector& z) {
  gl::StateGuard guard;
  stream::requireSameLayout("linalg::linearCombination", x, y);
  stream::requireSameLayout("linalg::linearCombination", x, z);
  combine("linalg::linearCombination", a, x, &b, &y, z);
}

namespace {
// z_i = x_i (op) y_i in one pass of linalg/pointwise.glsl; `define` picks the operation.
void pointwise(const char* what, const char* define, const Vector& x, const Vector& y, Vector& z) {
  gl::StateGuard guard;
  stream::requireSameLayout(what, x, y);
  stream::requireSameLayout(what, x, z);
  stream::Pass("linalg/pointwise")
      .label(what)
      .define(define)
      .input("u_x", x)
      .input("u_y", y)
      .uniform("u_n", int(z.size()))
      .uniform("u_width", z.layout().width())
      .output(z)
      .run();
}
}  // namespace

void multiply(const Vector& x, const Vector& y, Vector& z) { pointwise("linalg::multiply", "MULTIPLY", x, y, z); }

void divide(const Vector& x, const Vector& y, Vector& z) { pointwise("linalg::divide", "DIVIDE", x, y, z); }

void dot(const Vector& x, const Vector& y, Scalar& out) {
  gl::StateGuard guard;
  stream::requireSameLayout("linalg::dot", x, y);
  stream::dot(x, y, out);
}

void norm(const Vector& x, Scalar& out) {
  gl::StateGuard guard;
  requireNonEmpty("linalg::norm", x);
  stream::norm2(x, out);
}

void maxAbs(const Vector& x, Scalar& out) {
  gl::StateGuard guard;
  requireNonEmpty("linalg::maxAbs", x);
  stream::maxAbs(x, out);
}

float dot(const Vector& x, const Vector& y) {
  gl::StateGuard guard;
  Scalar s = Scalar::temporary("linalg::dot.result");
  linalg::dot(x, y, s);
  return s.read();
}

float norm(const Vector& x) {
  gl::StateGuard guard;
  Scalar s = Scalar::temporary("linalg::norm.result");
  linalg::norm(x, s);
  return s.read();
}

}  // namespace texstream::linalg
