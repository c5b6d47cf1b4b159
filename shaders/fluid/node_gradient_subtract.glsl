// fluid/gradient_subtract.glsl on node textures: at a fluid node with links, every face to a
// fluid or outlet neighbour is corrected by phi_nb - phi (faces to solids keep the solid's
// velocity), and the node takes the average of its two faces' corrections per axis. Other
// nodes keep their velocity.
#include "fluid/node_links.glsl"
uniform sampler2D u_velocity;
uniform sampler2D u_phi;

void kernel(ivec2 n) {
  vec4 vel = texelFetch(u_velocity, n, 0);
  if (centre(n) == 0.0) {
    o_out0 = vel;
    return;
  }
  float phi = texelFetch(u_phi, n, 0).x;
  float gE = link(n + kEast) * (neighbourPhi(u_phi, n + kEast) - phi);
  float gW = link(n + kWest) * (phi - neighbourPhi(u_phi, n + kWest));
  float gN = link(n + kNorth) * (neighbourPhi(u_phi, n + kNorth) - phi);
  float gS = link(n + kSouth) * (phi - neighbourPhi(u_phi, n + kSouth));
  o_out0 = vec4(vel.x - 0.5 * (gE + gW), vel.y - 0.5 * (gN + gS), vel.zw);
}
