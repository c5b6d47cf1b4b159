#pragma once
// Vector operations as single passes (Krüger & Westermann §44.3.1). Coefficients are CPU
// floats or GPU Scalars (stream/Coefficient.h). Every vector argument must share one
// layout; a mismatch throws gl::Error naming the operation and both vectors. Outputs may
// alias inputs (y = a x + y): the pass then renders into a pooled texture (Pass.h).
#include <texstream/stream/Coefficient.h>

namespace texstream::stream {
class Vector;
class Scalar;
}  // namespace texstream::stream

namespace texstream::linalg {

using stream::Coefficient;
using stream::Scalar;
using stream::Vector;

void copy(const Vector& x, Vector& y);                         ///< y = x
void fill(Vector& y, const Coefficient& a);                    ///< y_i = a (padding stays 0)
void scale(const Coefficient& a, Vector& y);                   ///< y = a y
void axpy(const Coefficient& a, const Vector& x, Vector& y);   ///< y = a x + y
void xpay(const Vector& x, const Coefficient& a, Vector& y);   ///< y = x + a y
void axpby(const Coefficient& a, const Vector& x, const Coefficient& b, Vector& y);  ///< y = a x + b y
/// z = a x + b y (z may alias x or y)
void linearCombination(const Coefficient& a, const Vector& x, const Coefficient& b, const Vector& y, Vector& z);
void multiply(const Vector& x, const Vector& y, Vector& z);    ///< z_i = x_i y_i
void divide(const Vector& x, const Vector& y, Vector& z);      ///< z_i = x_i / y_i (padding stays 0)
void dot(const Vector& x, const Vector& y, Scalar& out);       ///< out = x . y (on the GPU)
void norm(const Vector& x, Scalar& out);                       ///< out = ||x||_2 (on the GPU)
void maxAbs(const Vector& x, Scalar& out);                     ///< out = max |x_i|
/// Convenience forms that read the result back (blocking).
float dot(const Vector& x, const Vector& y);
float norm(const Vector& x);

}  // namespace texstream::linalg
