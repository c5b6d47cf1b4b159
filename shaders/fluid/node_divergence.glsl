// The flux divergence of a node velocity (fluid/projection.glsl's fluxSum on node textures):
// D = u_E - u_W + v_N - v_S over the faces of every fluid node with links, times u_scale
// (-1: the right-hand side b = -D of the pressure equation A phi = -D; 1 / h: the
// divergence in 1 / time). o_out0.x; zero at other nodes.
#include "fluid/node_links.glsl"
uniform sampler2D u_velocity;
uniform float u_scale;

void kernel(ivec2 n) {
  if (centre(n) == 0.0) {
    o_out0 = vec4(0.0);
    return;
  }
  vec2 own = texelFetch(u_velocity, n, 0).xy;
  float d = faceVelocity(u_velocity, own, n + kEast).x - faceVelocity(u_velocity, own, n + kWest).x +
            faceVelocity(u_velocity, own, n + kNorth).y - faceVelocity(u_velocity, own, n + kSouth).y;
  o_out0 = vec4(u_scale * d, 0.0, 0.0, 0.0);
}
