// Advection of a cells field (fluid3d/mac.glsl: smoke's density and temperature, a liquid's
// level set) through the MAC velocity u_velocity: each cell centre traces back by dt u
// (u_dtOverH = dt / h) from the velocity at its centre and takes the trilinear interpolation
// of u_q there (Stam 1999). REVERSE traces forward; MACCORMACK combines u_q (q^n),
// u_forward (A(q^n)) and u_backward (A^R(A(q^n))) into A(q^n) + (q^n - A^R A q^n) / 2,
// clamped to the range of the eight cells the back-trace blends (Selle et al. 2008). RAW:
// the advected value alone; otherwise damped by u_damping = 1 / (1 + dissipation dt), with
// SOURCE blended toward u_sourceValue in a sphere (u_source: centre in cell units, radius
// in cells; a soft edge one cell wide) at the rate u_sourceRate, with SOLIDS 0 in solid
// cells. Channels from CHANNELS on come out 0.
#include "fluid3d/mac.glsl"

uniform sampler2D u_q;
uniform sampler2D u_velocity;
uniform float u_dtOverH;
#ifdef MACCORMACK
uniform sampler2D u_forward;
uniform sampler2D u_backward;
#endif
#ifndef RAW
uniform float u_damping;
#ifdef SOURCE
uniform vec4 u_source;
uniform vec4 u_sourceValue;
uniform float u_sourceRate;
#endif
#ifdef SOLIDS
uniform sampler2D u_solids;
#endif
#endif

// The trilinear interpolation of u_q's first CHANNELS channels at x (cell-centre units, cell
// c at c), and the range of the cells blended (gridInterpolate). The compute backend takes
// the channels one gather pair each (gridInterpolateChannel) where fewer than four carry
// values; the other channels are 0.
vec4 interpolateCells(vec3 x, out vec4 lo, out vec4 hi) {
#if CHANNELS < 4 && defined(TEXSTREAM_COMPUTE)
  vec4 v = vec4(0.0);
  lo = vec4(0.0);
  hi = vec4(0.0);
  for (int c = 0; c < CHANNELS; ++c) {
    float l, h;
    v[c] = gridInterpolateChannel(u_q, u_cells, x, cellCount() - 1, c, l, h);
    lo[c] = l;
    hi[c] = h;
  }
  return v;
#else
  vec4 used = vec4(lessThan(ivec4(0, 1, 2, 3), ivec4(CHANNELS)));
  vec4 v = gridInterpolate(u_q, u_cells, x, cellCount() - 1, lo, hi);
  lo *= used;
  hi *= used;
  return v * used;
#endif
}

void kernel(ivec2 texel) {
  ivec3 c = gridBlock(u_cells, texel);
  if (c.z >= u_cells.size.z) {
    o_out0 = vec4(0.0);
    return;
  }
  vec3 p = vec3(c) + 0.5;
  vec3 velocity = cellVelocity(u_velocity, c);
#ifdef REVERSE
  vec3 from = p + u_dtOverH * velocity;
#else
  vec3 from = p - u_dtOverH * velocity;
#endif
#ifdef MACCORMACK
  vec4 lo, hi;
  interpolateCells(from - 0.5, lo, hi);
  vec4 q = clamp(texelFetch(u_forward, texel, 0) + 0.5 * (texelFetch(u_q, texel, 0) - texelFetch(u_backward, texel, 0)),
                 lo, hi);
#else
  vec4 lo, hi;
  vec4 q = interpolateCells(from - 0.5, lo, hi);
#endif
#ifndef RAW
  q *= u_damping;
#ifdef SOURCE
  float inside = clamp(u_source.w - length(p - u_source.xyz) + 0.5, 0.0, 1.0);
  q = mix(q, u_sourceValue, inside * u_sourceRate);
#endif
#ifdef SOLIDS
  if (texelFetch(u_solids, texel, 0).x > 0.5) q = vec4(0.0);
#endif
#endif
  o_out0 = q;
}
