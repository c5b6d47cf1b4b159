#include <texstream/linalg/DoubleFloatDot.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/TexturePool.h>
#include <texstream/stream/Vector.h>

#include <utility>

namespace texstream::linalg {

void doubleFloatDot(const DoubleFloatVector& x, const DoubleFloatVector& y, stream::Scalar& out,
                    const stream::Vector* weight) {
  const std::string where = "doubleFloatDot(\"" + x.name() + "\", \"" + y.name() + "\")";
  if (x.size() == 0 || x.hi().empty() || y.hi().empty()) throw gl::Error(where + ": empty vector");
  if (out.texture().id() == 0) throw gl::Error(where + ": empty output Scalar");
  stream::requireSameLayout(where.c_str(), x.hi(), y.hi());
  if (weight) stream::requireSameLayout((where + " weight").c_str(), x.hi(), *weight);
  stream::Runtime& rt = stream::Runtime::current();
  gl::StateGuard guard;
  if (rt.backend() == stream::Backend::Compute) {
    // One dispatch (linalg/double_float_dot_workgroup.glsl) instead of the levels below.
    stream::reduceCustom(x.layout(), {"linalg/double_float_dot_workgroup", [&](stream::Pass& pass) {
      pass.label("double-float dot").input("u_xHi", x.hi()).input("u_xLo", x.lo()).input("u_yHi", y.hi())
          .input("u_yLo", y.lo()).output(out);
      if (weight) pass.define("WEIGHTED").input("u_weight", *weight);
    }});
    return;
  }
  const int k = rt.reductionBlock(stream::Backend::Fragment);
  int w = x.layout().width(), h = x.layout().height();
  gl::Texture level[2];  // the current partial pairs (pooled), empty before the first pass
  bool first = true;
  for (;;) {
    const int ow = (w + k - 1) / k, oh = (h + k - 1) / k;
    const bool final = ow == 1 && oh == 1;
    gl::Texture next[2];
    stream::Pass pass("linalg/double_float_dot");
    pass.define("BLOCK", k).label(first ? "double-float dot" : "double-float dot level");
    if (first) {
      pass.define("FIRST_LEVEL").input("u_xHi", x.hi()).input("u_xLo", x.lo()).input("u_yHi", y.hi())
          .input("u_yLo", y.lo());
      if (weight) pass.define("WEIGHTED").input("u_weight", *weight);
    } else {
      pass.input("u_xHi", level[0]).input("u_xLo", level[1]);
    }
    if (final) {
      pass.define("FINAL").output(out);
    } else {
      for (gl::Texture& t : next) {
        t = rt.pool().acquire(ow, oh, gl::TextureFormat::RGBA32F, "texstream.doubleFloatDot");
        pass.output(t);
      }
    }
    pass.run();
    for (gl::Texture& t : level) {
      if (t.id()) rt.pool().release(std::move(t));
    }
    if (final) break;
    level[0] = std::move(next[0]);
    level[1] = std::move(next[1]);
    w = ow;
    h = oh;
    first = false;
  }
}

double readDoubleFloat(const stream::Scalar& s) {
  const auto v = s.read4();
  return double(v[0]) + double(v[1]);
}

}  // namespace texstream::linalg
