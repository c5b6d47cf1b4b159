// A node texture of one field for display and export (fluid/FluidSolver.h, Field):
// VELOCITY (u, v), PRESSURE p = phi h / dt, DIVERGENCE (the flux divergence of the current
// velocity's face averages, 1 / time), VORTICITY (central differences), TYPE (node type).
#include "fluid/projection.glsl"
#include "fluid/nodes.glsl"
uniform sampler2D u_phi;
uniform sampler2D u_boundary;
uniform float u_h;
uniform float u_pressureScale;

float valueAt(sampler2D f, ivec2 n) {
  n = clamp(n, ivec2(0), u_grid.xy - 1);
  return layeredValue(f, u_grid, n);
}

void kernel(ivec2 n) {
  vec4 o = vec4(0.0);
#if defined(VELOCITY)
  o.xy = vec2(valueAt(u_u, n), valueAt(u_v, n));
#elif defined(PRESSURE)
  o.x = u_pressureScale * valueAt(u_phi, n);
#elif defined(DIVERGENCE)
  ivec3 s = layeredSlot(u_grid, n);
  o.x = texelFetch(u_A4, s.xy, 0)[s.z] != 0.0 ? fluxSum(s.xy)[s.z] / u_h : 0.0;
#elif defined(VORTICITY)
  o.x = (valueAt(u_v, n + ivec2(1, 0)) - valueAt(u_v, n - ivec2(1, 0)) - valueAt(u_u, n + ivec2(0, 1)) +
         valueAt(u_u, n - ivec2(0, 1))) / (2.0 * u_h);
#else
  o.x = texelFetch(u_boundary, n, 0).x;
#endif
  o_out0 = o;
}
