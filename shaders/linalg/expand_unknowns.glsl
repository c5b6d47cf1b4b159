// out[e] = source[index[e]] where index[e] >= 0, else locked[e]: every scalar of a built
// system from its solved unknowns (solvers/systems/SystemSolver.h). index holds exact float
// element indices into the solver's internal order; index, locked and the output share
// one layout, the source may have any.
#include "sparse/element.glsl"

uniform sampler2D u_index;
uniform sampler2D u_source;
uniform sampler2D u_locked;
uniform int u_width;  // output layout width in texels
uniform int u_n;      // output elements (the rest is padding, kept 0)

void kernel(ivec2 texel) {
  int e = 4 * texelIndex(texel, u_width);
  vec4 index = texelFetch(u_index, texel, 0);
  vec4 locked = texelFetch(u_locked, texel, 0);
  vec4 result = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    if (e + c >= u_n) break;
    int i = int(index[c]);
    result[c] = i < 0 ? locked[c] : fetchElement(u_source, i);
  }
  o_out0 = result;
}
