// One Jacobi sweep of the level set's redistancing (cells field, phi in .x, in cells; < 0
// in the liquid): a cell with a neighbour across the surface (a sign change) keeps its
// value, which fixes where the surface is; every other cell takes the upwind solution of
// |grad phi| = 1 from its neighbours' current values (the local solver of fast sweeping,
// Zhao 2005), with its own sign. All cells read the values before the sweep, so no
// direction comes first; k sweeps make phi a signed distance up to k cells from the
// surface. Neighbours beyond the box do not count.
// CORRECT: phi + delta is read everywhere, delta = (V - u_targetVolume) / A clamped to
// [-1/2, 1/2] cell, from the sums of fluid3d/volume.glsl in u_volume (V) and u_band (A,
// the cells whose volume fraction phi moves): the global volume correction, a Newton step
// on the liquid's volume.
#include "fluid3d/mac.glsl"

uniform sampler2D u_scalars;
#ifdef CORRECT
uniform sampler2D u_volume;
uniform sampler2D u_band;
uniform float u_targetVolume;
#endif

float shift() {
#ifdef CORRECT
  float band = texelFetch(u_band, ivec2(0), 0).x;
  float volume = texelFetch(u_volume, ivec2(0), 0).x;
  return band > 0.5 ? clamp((volume - u_targetVolume) / band, -0.5, 0.5) : 0.0;
#else
  return 0.0;
#endif
}

void kernel(ivec2 texel) {
  ivec3 c = gridBlock(u_cells, texel);
  if (c.z >= u_cells.size.z) {
    o_out0 = vec4(0.0);
    return;
  }
  float delta = shift();
  vec4 here = texelFetch(u_scalars, texel, 0);
  float phi = here.x + delta;
  bool liquid = phi < 0.0, surface = false;
  vec3 nearest = vec3(1e30);
  for (int d = 0; d < 6; ++d) {
    int axis = d / 2;
    ivec3 n = c + (d % 2 == 0 ? -1 : 1) * unitStep(axis);
    if (!cellInside(n)) continue;
    float v = texelFetch(u_scalars, gridTexel(u_cells, n), 0).x + delta;
    surface = surface || ((v < 0.0) != liquid);
    nearest[axis] = min(nearest[axis], abs(v));
  }
  float result = phi;
  if (!surface && nearest.x + nearest.y + nearest.z < 1e30) {
    // a <= b <= c: one, two or three upwind neighbours.
    float a = min(nearest.x, min(nearest.y, nearest.z));
    float c3 = max(nearest.x, max(nearest.y, nearest.z));
    float b = nearest.x + nearest.y + nearest.z - a - c3;
    float distance = a + 1.0;
    if (distance > b) {
      distance = 0.5 * (a + b + sqrt(max(2.0 - (a - b) * (a - b), 0.0)));
      if (distance > c3) {
        float s = a + b + c3;
        distance = (s + sqrt(max(s * s - 3.0 * (a * a + b * b + c3 * c3 - 1.0), 0.0))) / 3.0;
      }
    }
    result = liquid ? -distance : distance;
  }
  o_out0 = vec4(result, here.yzw);
}
