#pragma once
// Mip-style reductions to a GPU Scalar (Bolz §3.1.3; Krüger & Westermann §44.3.2): each
// pass sums (or maxes) a k x k block of texels into one, k = Runtime::reductionBlock; the
// element-wise product of a dot is fused into the first level, so dot(x, y) reads x and y
// once and writes 1/k^2 of their size. Zero padding is the identity, so any size works.
// The last level also folds the four channels; the result lands in out's .x.
// On the compute backend the same results come from one dispatch instead (a workgroup
// reduction in shared memory whose last group folds the partials: shaders/reduce/
// workgroup.glsl), because there the small late levels of the mip-style scheme are
// latency-bound; the fragment backend, which has no shared memory, keeps the paper's
// levels.
#include <functional>
#include <string>

namespace texstream::stream {

class Layout;
class Vector;
class Scalar;
class Pass;

enum class ReductionOp { Sum, Dot, SumSquares, MaxAbs, Norm };

/// A kernel that consumes a reduction's result in the same dispatch (compute backend
/// only): shaders/<kernel>.glsl includes "reduce/workgroup.glsl" and defines
/// `void epilogue(float value)`, which runs once with the result and imageStores whatever
/// it computes (CG's alpha = rho / p.q, for example) into the outputs `bind` attaches,
/// together with any inputs and uniforms it needs.
struct ReductionEpilogue {
  std::string kernel;
  std::function<void(Pass&)> bind;
};

/// An epilogue in a GLSL file of its own, so that different kernels can end in it: the
/// file (`include`, relative to shaders/) defines `void epilogue(float value)` and the
/// uniforms it reads, and writes its results with imageStore into EPILOGUE_IMAGE0,
/// EPILOGUE_IMAGE1, ... (macros naming the images after the host kernel's own outputs);
/// `bind` attaches those inputs, outputs and uniforms.
struct DotEpilogue {
  std::string include;
  std::function<void(Pass&)> bind;
};
/// The name of a kernel made of `body` (a raw compute kernel that declares and calls
/// epilogue()) followed by `include`, with EPILOGUE_IMAGE<i> = u_image<firstImage + i>;
/// registered (KernelCache::registerKernelSource) the first time it is asked for.
std::string composeReductionKernel(const std::string& body, const std::string& include, int firstImage);
/// x . y handed to `epilogue` in the same dispatch (compute backend only).
void dotInto(const Vector& x, const Vector& y, const DotEpilogue& epilogue);
/// A one-dispatch reduction whose kernel defines both element() and epilogue()
/// (reduce/workgroup.glsl), visiting every texel of `layout` once (compute backend only).
/// element() may write that texel's outputs too: CG fuses its update with a dot this way.
void reduceCustom(const Layout& layout, const ReductionEpilogue& kernel);
/// Reduces x (and y, for Dot) and hands the result to `epilogue` in the same dispatch.
/// Throws gl::Error unless the compute backend is in effect.
void reduceInto(ReductionOp op, const Vector& x, const Vector* y, const ReductionEpilogue& epilogue);

/// out = sum_i x_i
void sum(const Vector& x, Scalar& out);
/// out = sum_i x_i y_i   (x, y of the same layout)
void dot(const Vector& x, const Vector& y, Scalar& out);
/// out = max_i |x_i|
void maxAbs(const Vector& x, Scalar& out);
/// out = sum_i x_i^2 (then sqrt in a 1x1 pass): out = ||x||_2
void norm2(const Vector& x, Scalar& out);

}  // namespace texstream::stream
