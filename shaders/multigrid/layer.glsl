// Layering (Bolz §4.2): layered texel t, channel c = node (t.x - 1 + qx sx, t.y - 1 + qy sy)
// of a vector holding node (i, j) at element i + nx j (stream layout). Border duplicates are
// filled too, so the result needs no border copy; channels past the border are zero.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_nodes;

void kernel(ivec2 t) {
  bvec4 halo = layeredHalo(u_grid, t);
  ivec4 i = layeredNodeX(u_grid, t.x), j = layeredNodeY(u_grid, t.y);
  vec4 v = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    if (halo[c]) v[c] = fetchElement(u_nodes, i[c] + u_grid.x * j[c]);
  }
  o_out0 = v;
}
