#include <texstream/stream/Reduction.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/TexturePool.h>
#include <texstream/stream/Vector.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <utility>

namespace texstream::stream {

namespace {

using Op = ReductionOp;

const char* opDefine(Op op) {
  switch (op) {
    case Op::Sum: return "OP_SUM";
    case Op::Dot: return "OP_DOT";
    case Op::SumSquares: return "OP_SUMSQ";
    case Op::Norm: return "OP_SUMSQ";
    case Op::MaxAbs: return "OP_MAXABS";
  }
  return "OP_SUM";
}

// Compute backend: one dispatch (shaders/reduce/workgroup.glsl) visiting every texel of
// `layout`; `setup` adds the element's inputs and defines.
// Workgroups of 16 x 16 invocations over a grid of at most reductionGroups() groups
// (1024 cover the largest GPUs several times over); beyond that each invocation loops
// (2D grid stride), which keeps the final fold short.
std::pair<int, int> reductionGrid(const Layout& layout) {
  const int maxGroups = Runtime::current().reductionGroups();
  const int tilesX = (layout.width() + 15) / 16, tilesY = (layout.height() + 15) / 16;
  const int groupsX = std::min(tilesX, 32);
  const int groupsY = std::max(1, std::min(tilesY, maxGroups / groupsX));
  return {groupsX, groupsY};
}

void dispatchWorkgroups(const Layout& layout, const ReductionEpilogue& epilogue,
                        const std::function<void(Pass&)>& setup) {
  Runtime& rt = Runtime::current();
  const auto [groupsX, groupsY] = reductionGrid(layout);
  Pass pass(epilogue.kernel);
  setup(pass);
  pass.uniform("u_size", layout.width(), layout.height()).storage(0, rt.reductionScratch())
      .workgroups(groupsX, groupsY);
  epilogue.bind(pass);
  pass.run();
}

// op over x (and y) handed to `epilogue`: reduce/op_epilogue.glsl composed with its file.
void reduceWorkgroups(Op op, const Vector& x, const Vector* y, const Epilogue& epilogue) {
  const std::string kernel = composeReductionKernel("reduce/op_epilogue", epilogue.include, 0);
  dispatchWorkgroups(x.layout(), {kernel, epilogue.bind}, [&](Pass& pass) {
    pass.label(std::string("reduce ") + opDefine(op)).define(opDefine(op)).input("u_x", x.texture());
    if (op == Op::Norm) pass.define("FINAL_SQRT");
    if (y) pass.input("u_y", y->texture());
  });
}

void reduce(Op op, const Vector& x, const Vector* y, Scalar& out) {
  if (x.empty()) throw gl::Error("reduction: empty vector");
  if (out.texture().id() == 0) throw gl::Error("reduction of \"" + x.name() + "\": empty output Scalar");
  Runtime& rt = Runtime::current();
  gl::StateGuard guard;
  const Backend backend = rt.backend();
  const bool sqrtAtEnd = op == Op::Norm;
  if (backend == Backend::Compute) {
    reduceWorkgroups(op, x, y, {"reduce/store_result.glsl", [&out](Pass& p) { p.output(out); }});
    return;
  }
  const int k = rt.reductionBlock(backend);
  int w = x.layout().width(), h = x.layout().height();
  gl::Texture level;  // current partial sums (pooled), empty before the first pass
  bool first = true;
  for (;;) {
    const int ow = (w + k - 1) / k, oh = (h + k - 1) / k;
    const bool final = ow == 1 && oh == 1;
    gl::Texture next;
    if (!final) next = rt.pool().acquire(ow, oh, gl::TextureFormat::RGBA32F, "texstream.reduction");
    Pass pass("reduce/level");
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

void sum(const Vector& x, Scalar& out) { reduce(Op::Sum, x, nullptr, out); }

void dot(const Vector& x, const Vector& y, Scalar& out) {
  requireSameLayout("dot", x, y);
  reduce(Op::Dot, x, &y, out);
}

void maxAbs(const Vector& x, Scalar& out) { reduce(Op::MaxAbs, x, nullptr, out); }

void norm2(const Vector& x, Scalar& out) { reduce(Op::Norm, x, nullptr, out); }

void reduceInto(ReductionOp op, const Vector& x, const Vector* y, const Epilogue& epilogue) {
  if (x.empty()) throw gl::Error("reduceInto(\"" + epilogue.include + "\"): empty vector");
  if (y) requireSameLayout("reduceInto", x, *y);
  if ((op == Op::Dot) != (y != nullptr)) throw gl::Error("reduceInto: a dot needs y, the other reductions do not");
  Runtime& rt = Runtime::current();
  if (rt.backend() != Backend::Compute) {
    throw gl::Error("reduceInto(\"" + epilogue.include + "\"): fused reductions run on the compute backend only");
  }
  gl::StateGuard guard;
  reduceWorkgroups(op, x, y, epilogue);
}

std::string composeReductionKernel(const std::string& body, const std::string& include, int firstImage) {
  static std::mutex mutex;
  static std::set<std::string> registered;
  const std::string name = "composed/" + body + "+" + include + "@" + std::to_string(firstImage);
  std::lock_guard<std::mutex> lock(mutex);
  if (registered.insert(name).second) {
    std::string source;
    for (int i = 0; i < 8; ++i) {
      source += "#define EPILOGUE_IMAGE" + std::to_string(i) + " u_image" + std::to_string(firstImage + i) + "\n";
    }
    source += "#include \"" + body + ".glsl\"\n#include \"" + include + "\"\n";
    registerKernelSource(name, source);
  }
  return name;
}

int reductionWorkgroups(const Layout& layout) {
  const auto [groupsX, groupsY] = reductionGrid(layout);
  return groupsX * groupsY;
}

void reduceCustom(const Layout& layout, const ReductionEpilogue& kernel) {
  Runtime& rt = Runtime::current();
  if (rt.backend() != Backend::Compute) {
    throw gl::Error("reduceCustom(\"" + kernel.kernel + "\"): fused reductions run on the compute backend only");
  }
  gl::StateGuard guard;
  dispatchWorkgroups(layout, kernel, [](Pass&) {});
}

}  // namespace texstream::stream
