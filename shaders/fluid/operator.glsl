// The fluid's grid operators as layered 3x3 stencils (solvers/multigrid/LayeredStencil.h), written
// straight into every texel of the layout, border duplicates included (no border copy).
// Outputs: o_out0..4 = entries S (0,-1), W (-1,0), centre, E (1,0), N (0,1); the corner
// entries stay zero.
//  - pressure (default): the finite-volume Laplacian of the projection on fluid nodes:
//    a link of -1 to every neighbour that is fluid or an outlet (Dirichlet p = 0), none to
//    solid neighbours (Neumann: the face carries the solid's velocity); centre = number of
//    links. Solid and outlet nodes are fixed (all zero).
//  - VISCOUS: (sigma - Δ h^2) with sigma = h^2 / (nu dt) on fluid nodes: links to fluid
//    and solid neighbours (Dirichlet: no-slip, lid, inflow values), none to outlets
//    (Neumann); centre sigma + links.
#include "multigrid/layered.glsl"
#include "fluid/nodes.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_boundary;
uniform float u_sigma;

void kernel(ivec2 t) {
  bvec4 halo = layeredHalo(u_grid, t);
  ivec4 ni = layeredNodeX(u_grid, t.x), nj = layeredNodeY(u_grid, t.y);
  vec4 s = vec4(0.0), w = vec4(0.0), c = vec4(0.0), e = vec4(0.0), n = vec4(0.0);
  for (int ch = 0; ch < 4; ++ch) {
    if (!halo[ch]) continue;
    ivec2 node = ivec2(ni[ch], nj[ch]);
    if (nodeType(u_boundary, node) != kFluid) continue;
    ivec2 offsets[4] = ivec2[4](ivec2(0, -1), ivec2(-1, 0), ivec2(1, 0), ivec2(0, 1));
    float link[4];
    float centre = 0.0;
    for (int k = 0; k < 4; ++k) {
      int type = nodeType(u_boundary, node + offsets[k]);
#ifdef VISCOUS
      link[k] = type == kOutlet ? 0.0 : -1.0;
#else
      link[k] = type == kSolid ? 0.0 : -1.0;
#endif
      centre -= link[k];
    }
#ifdef VISCOUS
    centre += u_sigma;
#endif
    s[ch] = link[0];
    w[ch] = link[1];
    e[ch] = link[2];
    n[ch] = link[3];
    c[ch] = centre;
  }
  o_out0 = s;
  o_out1 = w;
  o_out2 = c;
  o_out3 = e;
  o_out4 = n;
}
