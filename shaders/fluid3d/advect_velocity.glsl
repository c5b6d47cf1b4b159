// Advection of the MAC velocity (fluid3d/mac.glsl) through u_velocity, then body forces and
// the boundary velocities (fluid/FluidSolver3D.h):
//  - semi-Lagrangian (Stam 1999): each face traces back by dt u over one step (u_dtOverH =
//    dt / h turns velocity into cells) and takes its component's trilinear interpolation
//    of u_q there;
//  - REVERSE traces forward (MacCormack's backward step); MACCORMACK combines u_q (u^n),
//    u_forward (A(u^n)) and u_backward (A^R(A(u^n))) into A(u^n) + (u^n - A^R A u^n) / 2,
//    clamped to the range of the faces the back-trace blends (Selle et al. 2008);
//  - RAW: the advected value alone (MacCormack's first two passes); otherwise the forces:
//    gravity (-z), with BUOYANCY Fedkiw et al.'s (2001) (-alpha density + beta temperature)
//    along +z, with VORTICITY their confinement eps h (N x omega), N = grad|omega| /
//    |grad|omega||, from the cells' curl (fluid3d/curl.glsl); each the mean over the cells
//    on either side that exist; then the boundaries: a face on a wall of the box (u_closed)
//    is 0, a face beside a solid cell takes the solid's velocity (the mean of both when both
//    are solid); .w is 0.
#include "fluid3d/mac.glsl"

uniform sampler2D u_q;
uniform sampler2D u_velocity;
uniform float u_dtOverH;
#ifdef MACCORMACK
uniform sampler2D u_forward;
uniform sampler2D u_backward;
#endif
#ifndef RAW
uniform sampler2D u_solids;  // cells: .x 1 in solid cells, .yzw the solid's velocity
uniform int u_closed[6];     // 1 where the -x, +x, -y, +y, -z, +z side of the box is a wall
uniform float u_dt;
uniform float u_gravity;
#ifdef BUOYANCY
uniform sampler2D u_scalars;  // cells: .x density, .y temperature
uniform float u_buoyancy;
uniform float u_densityWeight;
#endif
#ifdef VORTICITY
uniform sampler2D u_curl;  // cells: omega in .xyz, |omega| in .w
uniform float u_vorticity;
uniform float u_h;
#endif
#endif

float advected(ivec3 b, int axis) {
  vec3 p = facePosition(b, axis);
  vec3 velocity = faceVelocity(u_velocity, b, axis);
#ifdef REVERSE
  vec3 from = p + u_dtOverH * velocity;
#else
  vec3 from = p - u_dtOverH * velocity;
#endif
#ifdef MACCORMACK
  float lo, hi;
  interpolateFace(u_q, from, axis, lo, hi);
  vec4 here = texelFetch(u_q, gridTexel(u_faces, b), 0);
  float corrected = texelFetch(u_forward, gridTexel(u_faces, b), 0)[axis] +
                    0.5 * (here[axis] - texelFetch(u_backward, gridTexel(u_faces, b), 0)[axis]);
  return clamp(corrected, lo, hi);
#else
  return interpolateFace(u_q, from, axis);
#endif
}

#ifndef RAW
#ifdef VORTICITY
// Confinement force at cell c (inside the grid).
vec3 confinement(ivec3 c) {
  vec4 here = texelFetch(u_curl, gridTexel(u_cells, c), 0);
  vec3 gradient = vec3(cellValue(u_curl, c + ivec3(1, 0, 0)).w - cellValue(u_curl, c - ivec3(1, 0, 0)).w,
                       cellValue(u_curl, c + ivec3(0, 1, 0)).w - cellValue(u_curl, c - ivec3(0, 1, 0)).w,
                       cellValue(u_curl, c + ivec3(0, 0, 1)).w - cellValue(u_curl, c - ivec3(0, 0, 1)).w);
  float length2 = dot(gradient, gradient);
  if (!(length2 > 1e-20)) return vec3(0.0);
  return u_vorticity * u_h * cross(gradient * inversesqrt(length2), here.xyz);
}
#endif

// The body force on face `axis` of texel b from cell c (inside the grid).
float cellForce(ivec3 c, int axis) {
  float f = axis == 2 ? -u_gravity : 0.0;
#ifdef BUOYANCY
  if (axis == 2) {
    vec4 s = texelFetch(u_scalars, gridTexel(u_cells, c), 0);
    f += u_buoyancy * s.y - u_densityWeight * s.x;
  }
#endif
#ifdef VORTICITY
  f += confinement(c)[axis];
#endif
  return f;
}

float withForcesAndBoundaries(float u, ivec3 b, int axis) {
  ivec3 minus = b - unitStep(axis);
  bool hasMinus = b[axis] > 0, hasPlus = b[axis] < cellCount()[axis];
  if ((!hasMinus && u_closed[2 * axis] == 1) || (!hasPlus && u_closed[2 * axis + 1] == 1)) return 0.0;
  vec4 solidMinus = hasMinus ? texelFetch(u_solids, gridTexel(u_cells, minus), 0) : vec4(0.0);
  vec4 solidPlus = hasPlus ? texelFetch(u_solids, gridTexel(u_cells, b), 0) : vec4(0.0);
  if (solidMinus.x > 0.5 || solidPlus.x > 0.5) {
    float count = step(0.5, solidMinus.x) + step(0.5, solidPlus.x);
    return (step(0.5, solidMinus.x) * solidMinus[axis + 1] + step(0.5, solidPlus.x) * solidPlus[axis + 1]) / count;
  }
  float f = 0.0, n = 0.0;
  if (hasMinus) {
    f += cellForce(minus, axis);
    n += 1.0;
  }
  if (hasPlus) {
    f += cellForce(b, axis);
    n += 1.0;
  }
  return u + u_dt * f / n;
}
#endif

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_faces, texel);
  vec4 out0 = vec4(0.0);
  if (b.z < u_faces.size.z) {
    for (int axis = 0; axis < 3; ++axis) {
      if (!faceExists(b, axis)) continue;
      float u = advected(b, axis);
#ifndef RAW
      u = withForcesAndBoundaries(u, b, axis);
#endif
      out0[axis] = u;
    }
  }
  o_out0 = out0;
}
