// Re-layering of the velocity (Bolz §4.3) with the boundary conditions imposed: solid
// nodes take their prescribed velocity (walls 0, the lid, the inflow), outlet nodes the
// average of their fluid neighbours (zero gradient). o_out0 = u, o_out1 = v, layered,
// border duplicates included (no border copy needed).
#include "multigrid/layered.glsl"
#include "fluid/nodes.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_velocity;
uniform sampler2D u_boundary;

vec2 nodeVelocity(ivec2 n) {
  vec4 b = texelFetch(u_boundary, n, 0);
  int type = int(b.x + 0.5);
  if (type == kSolid) return b.yz;
  if (type == kFluid) return texelFetch(u_velocity, n, 0).xy;
  vec2 sum = vec2(0.0);
  float count = 0.0;
  ivec2 offsets[4] = ivec2[4](ivec2(-1, 0), ivec2(1, 0), ivec2(0, -1), ivec2(0, 1));
  for (int k = 0; k < 4; ++k) {
    if (nodeType(u_boundary, n + offsets[k]) == kFluid) {
      sum += texelFetch(u_velocity, n + offsets[k], 0).xy;
      count += 1.0;
    }
  }
  return count > 0.0 ? sum / count : vec2(0.0);
}

void kernel(ivec2 t) {
  bvec4 halo = layeredHalo(u_grid, t);
  ivec4 ni = layeredNodeX(u_grid, t.x), nj = layeredNodeY(u_grid, t.y);
  vec4 u = vec4(0.0), v = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    if (!halo[c]) continue;
    vec2 vel = nodeVelocity(ivec2(ni[c], nj[c]));
    u[c] = vel.x;
    v[c] = vel.y;
  }
  o_out0 = u;
  o_out1 = v;
}
