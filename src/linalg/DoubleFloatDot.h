#pragma once
// Dot products of double-float pairs (DoubleFloatVector.h) summed in double-float
// arithmetic on the GPU, the result a pair in a Scalar (.x head, .y tail): what double-float
// CG (solvers/krylov/DoubleFloatCg.h) computes its alpha and beta from. Mip-style levels (Bolz
// §3.1.3) on both backends, shaders/linalg/double_float_dot.glsl; each level keeps its
// partial sums as pairs, so the sum carries about 48 bits however many terms it has.
namespace texstream::stream {
class Scalar;
class Vector;
}  // namespace texstream::stream

namespace texstream::linalg {

class DoubleFloatVector;

/// out = sum_i x_i y_i (times weight_i, a float vector of the same layout, when given),
/// out's .x the head and .y the tail. Throws gl::Error naming the vectors when layouts
/// differ or a vector is empty.
void doubleFloatDot(const DoubleFloatVector& x, const DoubleFloatVector& y, stream::Scalar& out,
                    const stream::Vector* weight = nullptr);
/// A pair Scalar's value, head + tail in double (a blocking read).
double readDoubleFloat(const stream::Scalar& s);

}  // namespace texstream::linalg
