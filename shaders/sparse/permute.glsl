// out[e] = source[index[e]] (0 where index[e] < 0): the gather that moves a vector between
// a user's row order and a matrix's internal order (linalg/Reordering.h, RowPermutation).
// index holds exact float element indices and is read by element, so the output, the
// index and the source may each have any layout.
#include "sparse/element.glsl"

uniform sampler2D u_index;
uniform sampler2D u_source;
uniform int u_width;  // output layout width in texels
uniform int u_n;      // output elements (the rest is padding, kept 0)

void kernel(ivec2 texel) {
  int e = 4 * texelIndex(texel, u_width);
  vec4 result = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    if (e + c >= u_n) break;
    int i = int(fetchElement(u_index, e + c));
    result[c] = i < 0 ? 0.0 : fetchElement(u_source, i);
  }
  o_out0 = result;
}
