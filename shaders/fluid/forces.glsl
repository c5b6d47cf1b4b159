// Body forces on the advected node velocity (Bolz §4.1, eq. 2: rho b): buoyancy along +y
// in proportion to the dye density under the node, mouse splats (an impulse with a
// Gaussian profile), and vorticity confinement (Fedkiw et al. 2001): f = eps h (N x omega),
// N = grad|omega| / |grad|omega||. Only fluid nodes change. IMPOSE_BOUNDARY (a step without
// the re-layering, FluidSolver.h) gives the other nodes their boundary values as the
// re-layering would: solid nodes their prescribed velocity, outlets their fluid neighbours'
// average.
#include "fluid/nodes.glsl"
uniform sampler2D u_velocity;
uniform sampler2D u_boundary;
uniform sampler2D u_curl;
uniform sampler2D u_dye;
uniform float u_dt;
uniform float u_h;
uniform float u_buoyancy;
uniform float u_vorticity;
uniform float u_dyeScale;
uniform int u_splatCount;
uniform float u_splatPosition[32];  // per splat: x, y, radius (nodes), unused
uniform float u_splatForce[32];     // per splat: velocity added at the centre (x, y), unused x2

#ifdef IMPOSE_BOUNDARY
vec4 boundaryVelocity(ivec2 n, int type) {
  if (type == kSolid) return vec4(texelFetch(u_boundary, n, 0).yz, 0.0, 0.0);
  vec2 sum = vec2(0.0);
  float count = 0.0;
  ivec2 offsets[4] = ivec2[4](ivec2(-1, 0), ivec2(1, 0), ivec2(0, -1), ivec2(0, 1));
  for (int k = 0; k < 4; ++k) {
    if (nodeType(u_boundary, n + offsets[k]) == kFluid) {
      sum += texelFetch(u_velocity, n + offsets[k], 0).xy;
      count += 1.0;
    }
  }
  return vec4(count > 0.0 ? sum / count : vec2(0.0), 0.0, 0.0);
}
#endif

void kernel(ivec2 n) {
  vec4 vel = texelFetch(u_velocity, n, 0);
  int type = nodeType(u_boundary, n);
  if (type != kFluid) {
#ifdef IMPOSE_BOUNDARY
    o_out0 = boundaryVelocity(n, type);
#else
    o_out0 = vel;
#endif
    return;
  }
  vec2 f = vec2(0.0);
  if (u_buoyancy != 0.0) {
    vec3 dye = nodeFetch(u_dye, ivec2(vec2(n) * u_dyeScale + 0.5)).rgb;
    f.y += u_buoyancy * (dye.r + dye.g + dye.b) / 3.0;
  }
  if (u_vorticity != 0.0) {
    float w = texelFetch(u_curl, n, 0).x;
    vec2 grad = vec2(abs(nodeFetch(u_curl, n + ivec2(1, 0)).x) - abs(nodeFetch(u_curl, n - ivec2(1, 0)).x),
                     abs(nodeFetch(u_curl, n + ivec2(0, 1)).x) - abs(nodeFetch(u_curl, n - ivec2(0, 1)).x)) /
                (2.0 * u_h);
    float len = length(grad);
    if (len > 1e-6) {
      vec2 N = grad / len;
      f += u_vorticity * u_h * vec2(N.y * w, -N.x * w);
    }
  }
  vec2 v = vel.xy + u_dt * f;
  for (int k = 0; k < u_splatCount; ++k) {
    vec2 d = vec2(n) - vec2(u_splatPosition[4 * k], u_splatPosition[4 * k + 1]);
    float r = u_splatPosition[4 * k + 2];
    v += vec2(u_splatForce[4 * k], u_splatForce[4 * k + 1]) * exp(-dot(d, d) / (r * r));
  }
  o_out0 = vec4(v, 0.0, 0.0);
}
