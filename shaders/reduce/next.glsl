// Later levels of a reduction: sum (or max, OP_MAX) a BLOCK x BLOCK block of partial
// results; the last level (FINAL) folds the channels into .x (FINAL_SQRT: then sqrt).
uniform sampler2D u_x;
#include "reduce/combine.glsl"

void kernel(ivec2 texel) {
  ivec2 size = textureSize(u_x, 0);
  ivec2 begin = texel * BLOCK;
  ivec2 end = min(begin + ivec2(BLOCK), size);
  vec4 acc = vec4(0.0);
  for (int j = begin.y; j < end.y; ++j) {
    for (int i = begin.x; i < end.x; ++i) {
      acc = COMBINE(acc, texelFetch(u_x, ivec2(i, j), 0));
    }
  }
  o_out0 = finish(acc);
}
