// Later levels of a reduction: sum (or max, OP_MAX) a BLOCK x BLOCK block of partial
// results; the last level (FINAL) folds the channels into .x (FINAL_SQRT: then sqrt).
uniform sampler2D u_x;
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
      acc = COMBINE(acc, texelFetch(u_x, ivec2(i, j), 0));
    }
  }
  o_out0 = finish(acc);
}
