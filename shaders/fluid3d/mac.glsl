// The MAC grid of a 3D fluid (fluid/FluidSolver3D.h): nx x ny x nz cells, velocity on faces
// (Harlow & Welch 1965; Fedkiw, Stam & Jensen 2001). Positions are in cell units, the box
// [0, nx] x [0, ny] x [0, nz], cell c centred at c + 1/2. Fields:
//  - cells (u_cells, one cell a texel): texel c is cell c;
//  - faces (u_faces, (nx + 1) x (ny + 1) x (nz + 1) texels, one a texel): texel b holds in
//    .x the u of face (b.x, b.y + 1/2, b.z + 1/2), the -x face of cell b; in .y the v of
//    face (b.x + 1/2, b.y, b.z + 1/2); in .z the w of face (b.x + 1/2, b.y + 1/2, b.z). A
//    component's faces are b <= faceLast(axis); the channels of texels beyond it are 0.
// Addressing goes through grid3d/grid.glsl.
#ifndef TEXSTREAM_FLUID3D_MAC_GLSL
#define TEXSTREAM_FLUID3D_MAC_GLSL
#include "grid3d/grid.glsl"

uniform Grid3 u_faces;
uniform Grid3 u_cells;

ivec3 cellCount() { return u_cells.size.xyz; }

ivec3 unitStep(int axis) { return ivec3(equal(ivec3(axis), ivec3(0, 1, 2))); }

// The last texel holding a face of component `axis`: n along the axis, n - 1 across it.
ivec3 faceLast(int axis) { return cellCount() - 1 + unitStep(axis); }

bool faceExists(ivec3 b, int axis) {
  return all(greaterThanEqual(b, ivec3(0))) && all(lessThanEqual(b, faceLast(axis)));
}

bool cellInside(ivec3 c) { return all(greaterThanEqual(c, ivec3(0))) && all(lessThan(c, cellCount())); }

// Where face `axis` of texel b lies (cell units).
vec3 facePosition(ivec3 b, int axis) { return vec3(b) + 0.5 - 0.5 * vec3(unitStep(axis)); }

// Component `axis` of faces field f at texel b clamped onto that component's faces.
float faceValue(sampler2D f, ivec3 b, int axis) { return gridFetchClamped(f, u_faces, b, faceLast(axis))[axis]; }

// Component `axis` of faces field f interpolated (trilinear) at p, clamped to the faces
// that exist; lo and hi: the range of the eight faces blended.
float interpolateFace(sampler2D f, vec3 p, int axis, out float lo, out float hi) {
  return gridInterpolateChannel(f, u_faces, p - 0.5 + 0.5 * vec3(unitStep(axis)), faceLast(axis), axis, lo, hi);
}
float interpolateFace(sampler2D f, vec3 p, int axis) {
  float lo, hi;
  return interpolateFace(f, p, axis, lo, hi);
}

// The velocity at p: each component interpolated on its faces.
vec3 velocityAt(sampler2D velocity, vec3 p) {
  return vec3(interpolateFace(velocity, p, 0), interpolateFace(velocity, p, 1), interpolateFace(velocity, p, 2));
}

// Component a (not `axis`) of the four faces around face `axis` of texel b (b a face of
// component `axis`), each clamped onto a's faces as faceValue clamps: b - back, b,
// b - back + up, b + up (back the unit step along `axis`, up along a). Only the steps along
// `axis` can leave a's faces (b - back below 0, b beyond a's last face); the steps along a
// stay inside.
vec4 fourFaces(sampler2D velocity, ivec3 b, int axis, int a) {
  ivec3 back = unitStep(axis), up = unitStep(a);
#ifdef TEXSTREAM_COMPUTE
  // By gathers (grid3d/grid.glsl's gridGather): where the plane of `axis` and a lies in a
  // slice one gather holds the four; where it holds z, a gather in each of two slices holds
  // the pair along the in-slice axis.
  ivec3 last = faceLast(a);
  vec4 f;
  if (axis != 2 && a != 2) {
    vec4 g = gridGather(velocity, gridSliceOrigin(u_faces, b.z) + (b - back).xy, a);
    f = axis == 0 ? g : g.xzyw;
  } else if (axis == 2) {
    ivec2 o0 = gridSliceOrigin(u_faces, max(b.z - 1, 0)), o1 = gridSliceOrigin(u_faces, min(b.z, last.z));
    vec4 g0 = gridGather(velocity, o0 + b.xy, a), g1 = gridGather(velocity, o1 + b.xy, a);
    f = a == 0 ? vec4(g0.x, g1.x, g0.y, g1.y) : vec4(g0.x, g1.x, g0.z, g1.z);
    return f;
  } else {
    vec4 g0 = gridGather(velocity, gridSliceOrigin(u_faces, b.z) + (b - back).xy, 2);
    vec4 g1 = gridGather(velocity, gridSliceOrigin(u_faces, b.z + 1) + (b - back).xy, 2);
    f = axis == 0 ? vec4(g0.xy, g1.xy) : vec4(g0.xz, g1.xz);
  }
  if (b[axis] == 0) f.xz = f.yw;
  else if (b[axis] > last[axis]) f.yw = f.xz;
  return f;
#else
  return vec4(faceValue(velocity, b - back, a), faceValue(velocity, b, a), faceValue(velocity, b - back + up, a),
              faceValue(velocity, b + up, a));
#endif
}

// The velocity at face `axis` of texel b: its own component, and for each other component
// the mean of the four faces around it (velocityAt() there, in 9 fetches rather than 24; on
// the compute backend in 5 or fewer gathers and one fetch).
vec3 faceVelocity(sampler2D velocity, ivec3 b, int axis) {
  vec3 v = vec3(0.0);
  for (int a = 0; a < 3; ++a) {
    if (a == axis) {
      v[a] = faceValue(velocity, b, a);
    } else {
      vec4 f = fourFaces(velocity, b, axis, a);
      // Summed in pairs that the mirrors across the axes swap, so that mirrored faces round alike.
      v[a] = 0.25 * ((f.x + f.y) + (f.z + f.w));
    }
  }
  return v;
}

// The velocity at the centre of cell c (inside the grid): the mean of its two faces per axis.
vec3 cellVelocity(sampler2D velocity, ivec3 c) {
  vec3 low = texelFetch(velocity, gridTexel(u_faces, c), 0).xyz;
  vec3 high = vec3(texelFetch(velocity, gridTexel(u_faces, c + ivec3(1, 0, 0)), 0).x,
                   texelFetch(velocity, gridTexel(u_faces, c + ivec3(0, 1, 0)), 0).y,
                   texelFetch(velocity, gridTexel(u_faces, c + ivec3(0, 0, 1)), 0).z);
  return 0.5 * (low + high);
}

// Cells field f at cell c clamped into the grid.
vec4 cellValue(sampler2D f, ivec3 c) { return gridFetchClamped(f, u_cells, c, cellCount() - 1); }

#endif
