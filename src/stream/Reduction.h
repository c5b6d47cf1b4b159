#pragma once
// Mip-style reductions to a GPU Scalar (Bolz §3.1.3; Krüger & Westermann §44.3.2): each
// pass sums (or maxes) a k x k block of texels into one, k = Runtime::reductionBlock; the
// element-wise product of a dot is fused into the first level, so dot(x, y) reads x and y
// once and writes 1/k^2 of their size. Zero padding is the identity, so any size works.
// The last level also folds the four channels; the result lands in out's .x.
namespace texstream::stream {

class Vector;
class Scalar;

/// out = sum_i x_i
void sum(const Vector& x, Scalar& out);
/// out = sum_i x_i y_i   (x, y of the same layout)
void dot(const Vector& x, const Vector& y, Scalar& out);
/// out = max_i |x_i|
void maxAbs(const Vector& x, Scalar& out);
/// out = sum_i x_i^2 (then sqrt in a 1x1 pass): out = ||x||_2
void norm2(const Vector& x, Scalar& out);

}  // namespace texstream::stream
