// Semi-Lagrangian advection (Stam 1999; Bolz §4.1.1: u_adv = C(u, -dt u), a first-order
// trace back and bilinear interpolation, offsets clamped to the domain) of a node field q
// on a grid u_scale times finer than the velocity grid (dye), or the velocity itself
// (u_scale = 1). The velocity is in domain units per time; u_cells = dt / h converts it
// to velocity-grid nodes. REVERSE traces forward (MacCormack's backward step). INJECT adds
// splats and the scene's source (dye). Damped by 1 / (1 + dissipation dt).
#include "fluid/nodes.glsl"
uniform sampler2D u_q;
uniform sampler2D u_velocity;
uniform float u_cells;
uniform float u_scale;
uniform float u_damping;
#ifdef INJECT
uniform int u_splatCount;
uniform float u_splatPosition[32];  // per splat: x, y (velocity nodes), radius, unused
uniform float u_splatColor[32];     // per splat: r, g, b, unused
uniform vec4 u_source;            // x, y, radius (velocity nodes), strength (0: none)
uniform vec4 u_sourceColor;
uniform float u_dt;
#endif

void kernel(ivec2 p) {
  vec2 x = vec2(p) / u_scale;  // velocity-grid node coordinates
  vec2 vel = bilinear(u_velocity, x).xy;
#ifdef REVERSE
  vec2 from = x + u_cells * vel;
#else
  vec2 from = x - u_cells * vel;
#endif
  vec4 q = bilinear(u_q, from * u_scale) * u_damping;
#ifdef INJECT
  for (int k = 0; k < u_splatCount; ++k) {
    vec2 d = x - vec2(u_splatPosition[4 * k], u_splatPosition[4 * k + 1]);
    float r = u_splatPosition[4 * k + 2];
    q.rgb += vec3(u_splatColor[4 * k], u_splatColor[4 * k + 1], u_splatColor[4 * k + 2]) * exp(-dot(d, d) / (r * r));
  }
  if (u_source.w > 0.0) {
    // Coverage of this node's cell (one node of the grid q lives on) by the disc, linear
    // over one cell across the edge. A hard inside test would inject at isolated nodes
    // where the edge grazes a row or column of nodes: the smoke's disc sits on the row
    // y = 2, tangent at the one node of its axis, and the convergent inflow there
    // (u = 0 on the axis: the back-trace never blends that column with its neighbours)
    // carried that node's dye up the whole plume as a one-column bright line.
    float inside = clamp((u_source.z - length(x - u_source.xy)) * u_scale + 0.5, 0.0, 1.0);
    q = mix(q, u_sourceColor, inside * min(1.0, u_source.w * u_dt));
  }
#endif
  o_out0 = q;
}
