// First level of a mip-style reduction (Bolz §3.1.3, Krüger & Westermann §44.3.2): one
// output texel per BLOCK x BLOCK block of input texels. The element-wise work of the
// operation is fused here, so a dot product reads x and y exactly once:
//   OP_SUM: x   OP_DOT: x*y   OP_SUMSQ: x*x   OP_MAXABS: |x|
uniform sampler2D u_x;
uniform sampler2D u_y;
uniform ivec2 u_outSize;  // STRIDED: the size of this level's output
#include "reduce/combine.glsl"

void kernel(ivec2 texel) {
  ivec2 size = textureSize(u_x, 0);
  vec4 acc = vec4(0.0);
#ifdef STRIDED
  // Texels texel + (a, b) * outputSize: neighbouring invocations read neighbouring texels
  // (coalesced on the compute backend); still BLOCK x BLOCK texels per output texel.
  for (int b = 0; b < BLOCK; ++b) {
    for (int a = 0; a < BLOCK; ++a) {
      ivec2 p = texel + ivec2(a, b) * u_outSize;
      if (p.x >= size.x || p.y >= size.y) continue;
      int i = p.x, j = p.y;
#else
  ivec2 begin = texel * BLOCK;
  ivec2 end = min(begin + ivec2(BLOCK), size);
  for (int j = begin.y; j < end.y; ++j) {
    for (int i = begin.x; i < end.x; ++i) {
#endif
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
