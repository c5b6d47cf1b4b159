// Display particles (Bolz fig. 5): positions in velocity-grid node coordinates (.xy), age
// (.z, steps) and a seed (.w). Each step moves a particle by the midpoint rule (RK2) through
// the bilinear node velocity; one that leaves the domain, enters a solid or ages out is
// reborn: near the inflow (x < u_spawnX, when set) or anywhere in the fluid, at the first
// of eight hashed candidates that is a fluid node.
#include "fluid/nodes.glsl"
uniform sampler2D u_particles;
uniform sampler2D u_velocity;
uniform sampler2D u_boundary;
uniform float u_cells;
uniform float u_maxAge;
uniform float u_spawnX;
uniform int u_step;
uniform int u_count;
uniform int u_width;

float hash(float a, float b) {
  return fract(sin(a * 12.9898 + b * 78.233) * 43758.5453);
}

void kernel(ivec2 texel) {
  vec4 p = texelFetch(u_particles, texel, 0);
  if (texelIndex(texel, u_width) >= u_count) {
    o_out0 = vec4(0.0);
    return;
  }
  vec2 size = vec2(textureSize(u_velocity, 0));
  vec2 mid = p.xy + 0.5 * u_cells * bilinear(u_velocity, p.xy).xy;
  vec2 x = p.xy + u_cells * bilinear(u_velocity, mid).xy;
  float age = p.z + 1.0;
  bool outside = x.x < 0.5 || x.y < 0.5 || x.x > size.x - 1.5 || x.y > size.y - 1.5;
  bool dead = outside || age > u_maxAge || nodeType(u_boundary, ivec2(x + 0.5)) == kSolid;
  if (dead) {
    age = 0.0;
    for (int k = 0; k < 8; ++k) {
      float a = hash(p.w + float(k), float(u_step)), b = hash(p.w * 1.7 + float(k) * 3.1, float(u_step) + 0.5);
      vec2 candidate = u_spawnX > 0.0 ? vec2(1.0 + a * u_spawnX, 1.0 + b * (size.y - 3.0))
                                      : vec2(1.0 + a * (size.x - 3.0), 1.0 + b * (size.y - 3.0));
      x = candidate;
      if (nodeType(u_boundary, ivec2(candidate + 0.5)) == kFluid) break;
    }
    age = -hash(p.w, float(u_step) + 7.0) * u_maxAge * 0.5;  // stagger rebirths
  }
  o_out0 = vec4(x, age, p.w);
}
