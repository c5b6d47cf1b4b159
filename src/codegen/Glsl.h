#pragma once
// texstream::codegen: GLSL for a SimdProgram (Bajaj et al. 2004, §2.3.1 and §4: the
// optimised expression as shader code), one vec4 operation per instruction: MUL/MAD as
// `C * x.swz (+ a)`, DP4 as `dot(C, x)` into one lane, ADD as `+`. Matrix values (and b,
// unless read from a texture) are float literals in the code, "melted into the kernel"
// (§4.1.2). Valid GLSL 3.30 core and 4.30 core.
//
// Forms:
//  - TexelKernel: a texstream kernel (stream/Pass.h) writing o_out0 = y_I at texel I of a
//    vector in the expression's (permuted) order:
//      uniform sampler2D u_x;  uniform int u_width;  [uniform sampler2D u_b;]
//    x, y (and b) are stream::Vectors of the program's padded size, u_width their layout's
//    width. A `switch` on the texel index selects block row I's straight-line code.
//    Gauss–Seidel programs add `uniform int u_block;`: texel u_block gets its new x_I,
//    every other texel copies x; running the pass for u_block = 0, 1, ..., n-1 in place
//    (the output is x) is one sweep (as the paper's slab-by-slab passes, §4.1.2).
//  - Function: `void NAME(in vec4 x[N], out vec4 y[N])` (Gauss–Seidel: `inout vec4 x[N]`),
//    straight-line code for the whole expression, as in the paper's vertex programs (§3);
//    with biasFromInput an extra `in vec4 b[N]` comes last.
#include <texstream/codegen/SimdProgram.h>

#include <string>

namespace texstream::codegen {

enum class GlslForm { TexelKernel, Function };

struct GlslOptions {
  GlslForm form = GlslForm::TexelKernel;
  std::string functionName = "linexprEvaluate";  ///< Function form
  /// b_I from the sampler u_b (kernel) or the argument b (function) instead of literals;
  /// the block rows whose b is null in the program still skip it.
  bool biasFromInput = false;
  /// Lines put at the top as // comments (e.g. the expression's name and cost).
  std::string comment;
};

/// Throws std::invalid_argument if a coefficient does not fit a float, or for a bad
/// function name.
std::string toGlsl(const SimdProgram& p, const GlslOptions& options = {});

/// The shortest decimal literal that reads back as the float nearest v ("0.25", "1.0",
/// "-3.0e-08"), valid GLSL. Throws std::invalid_argument when |v| overflows a float.
std::string glslFloat(double v);

}  // namespace texstream::codegen
