// Tests src/codegen/Glsl.*: the GLSL generated for an optimised expression (Bajaj et al.
// 2004) runs as a texstream kernel (stream::Pass) on both backends and equals the plain
// double evaluation on random data — texel-kernel and function forms, constant and texture
// b, and the Gauss–Seidel kernel run block row by block row. The generated sources are
// registered as kernels with stream::registerKernelSource.
#include <catch2/catch.hpp>

#include "codegen/CodegenTestSupport.h"
#include "support/Gl.h"

#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/Examples.h>
#include <texstream/codegen/Glsl.h>
#include <texstream/codegen/SimdProgram.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Vector.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

using namespace texstream;
using namespace texstream::codegen;
using stream::Pass;
using stream::Vector;

namespace {

/// Registers `source` as a kernel (stream::registerKernelSource) and returns its name.
std::string installKernel(const std::string& source) {
  static int counter = 0;
  const std::string name = "codegen_test/k" + std::to_string(counter++);
  stream::registerKernelSource(name, source);
  return name;
}

std::vector<double> toDouble(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

/// Runs the kernel form of `p` on x (permuted order, padded size) and returns y.
std::vector<double> runKernel(const SimdProgram& p, const std::vector<double>& x, const std::vector<double>* b) {
  GlslOptions options;
  options.biasFromInput = b != nullptr;
  const std::string kernel = installKernel(toGlsl(p, options));
  Vector xv(std::size_t(p.size), "linexpr.x"), yv(std::size_t(p.size), "linexpr.y"),
      bv(std::size_t(p.size), "linexpr.b");
  xv.upload(x);
  yv.upload(std::vector<float>(std::size_t(p.size), 1e6f));  // poison
  Pass pass(kernel);
  pass.input("u_x", xv).uniform("u_width", xv.layout().width());
  if (b) {
    bv.upload(*b);
    pass.input("u_b", bv);
  }
  pass.output(yv).run();
  return toDouble(yv.download());
}

/// Runs the function form through a small wrapper kernel.
std::vector<double> runFunction(const SimdProgram& p, const std::vector<double>& x) {
  GlslOptions options;
  options.form = GlslForm::Function;
  options.functionName = "evaluateExpression";
  const std::string n = std::to_string(p.blocks);
  std::string source = toGlsl(p, options);
  source +=
      "uniform sampler2D u_x;\nuniform int u_width;\n"
      "void kernel(ivec2 texel) {\n"
      "  int I = texelIndex(texel, u_width);\n"
      "  vec4 x[" +
      n +
      "];\n"
      "  for (int j = 0; j < " +
      n +
      "; ++j) x[j] = texelFetch(u_x, texelCoord(j, u_width), 0);\n"
      "  vec4 y[" +
      n +
      "];\n"
      "  evaluateExpression(x, y);\n"
      "  o_out0 = vec4(0.0);\n"
      "  for (int j = 0; j < " +
      n +
      "; ++j) if (j == I) o_out0 = y[j];\n"
      "}\n";
  const std::string kernel = installKernel(source);
  Vector xv(std::size_t(p.size), "linexpr.x"), yv(std::size_t(p.size), "linexpr.y");
  xv.upload(x);
  Pass(kernel).input("u_x", xv).uniform("u_width", xv.layout().width()).output(yv).run();
  return toDouble(yv.download());
}

/// The expected y in the permuted, padded order, in double precision.
std::vector<double> reference(const LinearExpression& e, const std::vector<double>& x) {
  std::vector<double> xs(x.begin(), x.begin() + e.size());
  auto y = e.evaluate(xs);
  y.resize(std::size_t(e.paddedSize()), 0.0);
  return y;
}

/// x rounded to float, as the GPU sees it, so the reference sees the same inputs.
std::vector<double> floatRounded(std::vector<double> v) {
  for (double& x : v) x = double(float(x));
  return v;
}

}  // namespace

TEST_CASE("generated GLSL kernels equal y = A x + b on the GPU", "[gl][codegen]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::vector<LinearExpression> cases;
  for (int m : {1, 5, 17, 37}) cases.push_back(test::randomExpression(m, 0.25, 0.6, std::uint64_t(m)));
  AnnealingSchedule s;
  s.iterations = 20000;
  cases.push_back(anneal(test::randomExpression(40, 0.1, 0.5, 77), s).expression);  // mixed row/column-major
  cases.push_back(anneal(example("rk4-suspension").expression, example("rk4-suspension").schedule).expression);
  cases.push_back(example("wave8x8").expression);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const LinearExpression& e = cases[k];
    INFO("case " << k << ", m = " << e.size());
    const SimdProgram p = compile(e);
    const auto x = floatRounded(test::randomVector(std::size_t(p.size), 100 + k));
    const auto y = reference(e, x);
    REQUIRE(test::relativeError(runKernel(p, x, nullptr), y) < 2e-6);
    REQUIRE(test::relativeError(runFunction(p, x), y) < 2e-6);
    // b from a texture: the values come at run time (here b itself, in float).
    const auto b = floatRounded(std::vector<double>(e.b().begin(), e.b().end()));
    auto bPadded = b;
    bPadded.resize(std::size_t(p.size), 0.0);
    const LinearExpression eFloatB(e.size(), e.entries(), b);
    REQUIRE(test::relativeError(runKernel(p, x, &bPadded), reference(eFloatB, x)) < 2e-6);
  }
}

TEST_CASE("the generated Gauss-Seidel kernel, one pass per block row, is one sweep", "[gl][codegen]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const Example ex = example("gauss-seidel");
  AnnealingSchedule s;
  s.iterations = 30000;
  for (const GaussSeidelSystem& system : {ex.system, anneal(ex.system, s).system}) {
    const SimdProgram p = compile(system);
    const std::string kernel = installKernel(toGlsl(p));
    const auto x0 = floatRounded(test::randomVector(64, 5));
    Vector x(64, "gs.x");
    x.upload(x0);
    for (int I = 0; I < p.blocks; ++I) {
      Pass(kernel).input("u_x", x).uniform("u_width", x.layout().width()).uniform("u_block", I).output(x).run();
    }
    REQUIRE(test::relativeError(toDouble(x.download()), system.sweep(x0)) < 2e-6);
  }
}

TEST_CASE("GLSL literals and names", "[codegen]") {
  REQUIRE(glslFloat(0.25) == "0.25");
  REQUIRE(glslFloat(1.0) == "1.0");
  REQUIRE(glslFloat(-3.0) == "-3.0");
  REQUIRE(glslFloat(1e-5) == "1.0e-05");
  REQUIRE(float(std::strtod(glslFloat(1.0 / 3.0).c_str(), nullptr)) == float(1.0 / 3.0));
  REQUIRE_THROWS_WITH(glslFloat(1e300), Catch::Contains("does not fit a 32-bit float"));
  GlslOptions bad;
  bad.form = GlslForm::Function;
  bad.functionName = "2bad";
  REQUIRE_THROWS_WITH(toGlsl(compile(example("ebj2d").expression), bad),
                      Catch::Contains("not a valid GLSL function name"));
}
