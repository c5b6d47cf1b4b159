#pragma once
// texstream::stream::Coefficient: a scalar factor given either on the CPU (a float) or on
// the GPU (a Scalar, optionally scaled or inverted), so that solvers never read scalars
// back: axpy(-alpha, q, r) with alpha a Scalar costs no round trip.
//
// In GLSL a coefficient is `uniform Coefficient u_a;` read with COEFFICIENT(u_a).
namespace texstream::stream {

class Scalar;

struct Coefficient {
  float factor = 1.0f;
  const Scalar* scalar = nullptr;  ///< when set: value = factor * s (or factor / s)
  bool reciprocal = false;

  Coefficient(float value) : factor(value) {}  // NOLINT: implicit by design
  Coefficient(double value) : factor(float(value)) {}  // NOLINT
  Coefficient(const Scalar& s) : scalar(&s) {}  // NOLINT
  Coefficient(float f, const Scalar& s, bool inverse = false) : factor(f), scalar(&s), reciprocal(inverse) {}
};

/// -s, 2.0f * s, 1.0f / s: coefficients built from GPU scalars.
inline Coefficient operator-(const Coefficient& c) {
  Coefficient r = c;
  r.factor = -r.factor;
  return r;
}
inline Coefficient operator*(float f, const Scalar& s) { return Coefficient(f, s); }
inline Coefficient operator/(float f, const Scalar& s) { return Coefficient(f, s, true); }
inline Coefficient operator-(const Scalar& s) { return Coefficient(-1.0f, s); }

}  // namespace texstream::stream
