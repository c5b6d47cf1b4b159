#include <texstream/stream/Reduction.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/TexturePool.h>
#include <texstream/stream/Vector.h>

namespace texstream::stream {

namespace {

enum class Op { Sum, Dot, SumSquares, MaxAbs };

const char* opDefine(Op op) {
  switch (op) {
    case Op::Sum: return "OP_SUM";
    case Op::Dot: return "OP_DOT";
    case Op::SumSquares: return "OP_SUMSQ";
    case Op::MaxAbs: return "OP_MAXABS";
  }
  return "OP_SUM";
}

void reduce(Op op, const Vector& x, const Vector* y, Scalar& out, bool sqrtAtEnd) {
  if (x.empty()) throw gl::Error("reduction: empty vector");
  if (out.texture().id() == 0) throw gl::Error("reduction of \"" + x.name() + "\": empty output Scalar");
  Runtime& rt = Runtime::current();
  gl::StateGuard guard;
  const Backend backend = rt.backend();
  const int k = rt.reductionBlock(backend);
  int w = x.layout().width(), h = x.layout().height();
  gl::Texture level;  // current partial sums (pooled), empty before the first pass
  bool first = true;
  for (;;) {
    const int ow = (w + k - 1) / k, oh = (h + k - 1) / k;
    const bool final = ow == 1 && oh == 1;
    gl::Texture next;
    if (!final) next = rt.pool().acquire(ow, oh, gl::TextureFormat::RGBA32F, "texstream.reduction");
    Pass pass(first ? "reduce/first" : "reduce/next");
    // Compute: strided blocks, so neighbouring invocations read neighbouring texels.
    // Fragment: the paper's contiguous k x k blocks (2x2 quads share cache lines).
    if (backend == Backend::Compute) pass.define("STRIDED").uniform("u_outSize", ow, oh);
    pass.define("BLOCK", k).label(first ? std::string("reduce ") + opDefine(op) : "reduce level");
    if (first) {
      pass.define(opDefine(op)).input("u_x", x.texture());
      if (y) pass.input("u_y", y->texture());
    } else {
      pass.define(op == Op::MaxAbs ? "OP_MAX" : "OP_SUM").input("u_x", level);
    }
    if (final) {
      pass.define("FINAL");
      if (sqrtAtEnd) pass.define("FINAL_SQRT");
      pass.output(out);
    } else {
      pass.output(next);
    }
    pass.run();
    if (level.id()) rt.pool().release(std::move(level));
    if (final) break;
    level = std::move(next);
    w = ow;
    h = oh;
    first = false;
  }
}

}  // namespace

void sum(const Vector& x, Scalar& out) { reduce(Op::Sum, x, nullptr, out, false); }

void dot(const Vector& x, const Vector& y, Scalar& out) {
  requireSameLayout("dot", x, y);
  reduce(Op::Dot, x, &y, out, false);
}

void maxAbs(const Vector& x, Scalar& out) { reduce(Op::MaxAbs, x, nullptr, out, false); }

void norm2(const Vector& x, Scalar& out) { reduce(Op::SumSquares, x, nullptr, out, true); }

}  // namespace texstream::stream
