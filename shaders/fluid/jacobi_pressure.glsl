// One weighted Jacobi sweep on the pressure equation A phi = b of fluid/operator.glsl
// (solvers/stationary/Jacobi.h: phi' = phi + omega D^-1 (b - A phi)), on node textures: at a fluid node
// with c links, phi' = (1 - omega) phi + omega (sum of the linked neighbours' phi + b) / c,
// outlets holding phi = 0; zero at every other node. phi and b in .x.
#include "fluid/node_links.glsl"
uniform sampler2D u_phi;
uniform sampler2D u_rhs;
uniform float u_omega;

void kernel(ivec2 n) {
  float c = centre(n);
  if (c == 0.0) {
    o_out0 = vec4(0.0);
    return;
  }
  float sum = link(n + kEast) * neighbourPhi(u_phi, n + kEast) + link(n + kWest) * neighbourPhi(u_phi, n + kWest) +
              link(n + kNorth) * neighbourPhi(u_phi, n + kNorth) + link(n + kSouth) * neighbourPhi(u_phi, n + kSouth);
  float phi = texelFetch(u_phi, n, 0).x;
  o_out0 = vec4(mix(phi, (sum + texelFetch(u_rhs, n, 0).x) / c, u_omega), 0.0, 0.0, 0.0);
}
