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
  vec4 l, h;
  float v = gridInterpolate(f, u_faces, p - 0.5 + 0.5 * vec3(unitStep(axis)), faceLast(axis), l, h)[axis];
  lo = l[axis];
  hi = h[axis];
  return v;
}
float interpolateFace(sampler2D f, vec3 p, int axis) {
  float lo, hi;
  return interpolateFace(f, p, axis, lo, hi);
}

// The velocity at p: each component interpolated on its faces.
vec3 velocityAt(sampler2D velocity, vec3 p) {
  return vec3(interpolateFace(velocity, p, 0), interpolateFace(velocity, p, 1), interpolateFace(velocity, p, 2));
}

// The velocity at face `axis` of texel b: its own component, and for each other component
// the mean of the four faces around it (velocityAt() there, in 9 fetches rather than 24).
vec3 faceVelocity(sampler2D velocity, ivec3 b, int axis) {
  vec3 v = vec3(0.0);
  ivec3 back = unitStep(axis);
  for (int a = 0; a < 3; ++a) {
    if (a == axis) {
      v[a] = faceValue(velocity, b, a);
    } else {
      ivec3 up = unitStep(a);
      v[a] = 0.25 * (faceValue(velocity, b - back, a) + faceValue(velocity, b, a) +
                     faceValue(velocity, b - back + up, a) + faceValue(velocity, b + up, a));
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
