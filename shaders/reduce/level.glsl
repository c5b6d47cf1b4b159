// One level of a mip-style reduction (Bolz §3.1.3, Krüger & Westermann §44.3.2): one
// output texel per BLOCK x BLOCK block of input texels. On the first level the
// element-wise work of the operation is fused in, so a dot product reads x and y exactly
// once:  OP_SUM: x   OP_DOT: x*y   OP_SUMSQ: x*x   OP_MAXABS: |x|;  later levels sum
// (OP_SUM) or max (OP_MAX) partial results. The last level (FINAL) folds the channels
// into .x (FINAL_SQRT: then takes the square root).
uniform sampler2D u_x;
uniform sampler2D u_y;
#include "reduce/combine.glsl"

void kernel(ivec2 texel) {
  ivec2 size = textureSize(u_x, 0);
  vec4 acc = vec4(0.0);
  ivec2 begin = texel * BLOCK;
  ivec2 end = min(begin + ivec2(BLOCK), size);
  for (int j = begin.y; j < end.y; ++j) {
    for (int i = begin.x; i < end.x; ++i) {
      vec4 v = texelFetch(u_x, ivec2(i, j), 0);
#if defined(OP_DOT)
      v *= texelFetch(u_y, ivec2(i, j), 0);
#elif defined(OP_SUMSQ)
      v *= v;
#elif defined(OP_MAXABS)
      v = abs(v);
#endif
      acc = COMBINE(acc, v);
    }
  }
  o_out0 = finish(acc);
}
