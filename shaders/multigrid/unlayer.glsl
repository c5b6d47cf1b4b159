// Un-layering (Bolz §4.2): element e = i + nx j of the output (stream layout, u_width
// texels wide) = node (i, j) read at its owner's texel and channel; padding stays zero.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_layered;
uniform int u_width;

void kernel(ivec2 texel) {
  int t = texelIndex(texel, u_width);
  int n = u_grid.x * u_grid.y;
  vec4 v = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    int e = 4 * t + c;
    if (e < n) v[c] = layeredValue(u_layered, u_grid, ivec2(e - u_grid.x * (e / u_grid.x), e / u_grid.x));
  }
  o_out0 = v;
}
