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

/// What consumes a reduction's result in the same dispatch (compute backend only), in a
/// GLSL file of its own so that different kernels can end in it (a plain reduction, a
/// SegmentMatrix product): the file (`include`, relative to shaders/) defines
/// `void epilogue(float value)`, which runs once with the result, and the uniforms it
/// reads; it writes what it computes (CG's alpha and beta, say) with imageStore into
/// EPILOGUE_IMAGE0, EPILOGUE_IMAGE1, ... (macros naming the images after the host kernel's
/// own outputs); `bind` attaches those inputs, outputs and uniforms.
struct Epilogue {
  std::string include;
  std::function<void(Pass&)> bind;
};
/// The name of a kernel made of `body` (a raw compute kernel that declares and calls
/// epilogue()) followed by `include`, with EPILOGUE_IMAGE<i> = u_image<firstImage + i>;
/// registered (KernelCache::registerKernelSource) the first time it is asked for.
std::string composeReductionKernel(const std::string& body, const std::string& include, int firstImage);
/// Reduces x (and y, for Dot) and hands the result to `epilogue` in the same dispatch.
/// Throws gl::Error unless the compute backend is in effect.
void reduceInto(ReductionOp op, const Vector& x, const Vector* y, const Epilogue& epilogue);

/// A kernel that defines both `vec4 element(ivec2 texel)` and its epilogue in one file:
/// shaders/<kernel>.glsl includes "reduce/workgroup.glsl", element() may also write its
/// texel's outputs (CG fuses its vector update with r.u and r.r this way).
struct ReductionEpilogue {
  std::string kernel;
  std::function<void(Pass&)> bind;
};
/// That kernel's one-dispatch reduction, visiting every texel of `layout` once (compute
/// backend only).
void reduceCustom(const Layout& layout, const ReductionEpilogue& kernel);
/// The workgroups of that reduction over `layout`: the partials a PARTIALS_ONLY kernel
/// writes (reduce/workgroup.glsl) in a scratch buffer its bind() puts at binding 0.
int reductionWorkgroups(const Layout& layout);

/// out = sum_i x_i
void sum(const Vector& x, Scalar& out);
/// out = sum_i x_i y_i   (x, y of the same layout)
void dot(const Vector& x, const Vector& y, Scalar& out);
/// out = max_i |x_i|
void maxAbs(const Vector& x, Scalar& out);
/// out = sum_i x_i^2 (then sqrt in a 1x1 pass): out = ||x||_2
void norm2(const Vector& x, Scalar& out);

}  // namespace texstream::stream
