// Paints solid nodes (u_solid = 1) or erases them back to fluid (0) in a disc of the
// boundary texture (.x type, .yz prescribed velocity). The domain's edge nodes keep their
// type (walls, inlet, outlet).
#include "fluid/nodes.glsl"
uniform sampler2D u_boundary;
uniform vec4 u_disc;  // x, y, radius in nodes, unused
uniform int u_solid;

void kernel(ivec2 n) {
  vec4 b = texelFetch(u_boundary, n, 0);
  ivec2 size = textureSize(u_boundary, 0);
  bool edge = n.x == 0 || n.y == 0 || n.x == size.x - 1 || n.y == size.y - 1;
  vec2 d = vec2(n) - u_disc.xy;
  if (!edge && dot(d, d) <= u_disc.z * u_disc.z) b = vec4(u_solid != 0 ? float(kSolid) : float(kFluid), 0.0, 0.0, 0.0);
  o_out0 = b;
}
