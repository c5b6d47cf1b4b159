// One whole red-black Gauss-Seidel sweep of PressureMultigrid3D in one dispatch (compute
// backend): the colour u_first, then the other, each cell of each colour relaxed with the
// expression of pressure3d/mg_smooth.glsl, whose two passes (one a colour) the fragment
// backend runs instead. Two passes read z, r and the diagonal and write z twice; this
// dispatch reads and writes them once, plus a halo.
//
// A workgroup owns a tile of (SWEEP_THREADS_X - 2) texels x (SWEEP_THREADS_Y - 4) rows of
// u_chunk slices and marches through its slices (2.5D blocking): z of four consecutive
// slices of the tile with a halo (one texel along x, two rows along y) sits in shared
// memory, one invocation a texel. At step t it stores slice t + 1's z, relaxes the first
// colour of slice t on the tile and a one-block halo (reading the old second colour of
// slices t - 1 .. t + 1), then the second colour of slice t - 1 on the tile (reading the new
// first colour of slices t - 2 .. t) and writes that slice, now final. The halo's first
// colour is relaxed by every workgroup that needs it, so workgroups never wait for each
// other. Slices of the texture's unused tiles get zeros.
//
// ZERO_GUESS: z = 0 before the sweep. CORRECT: z += P z_coarse first (the coarse-grid
// correction of mg_smooth.glsl, folded into the loads). BAND: only the cells of the boundary
// band (u_band, pressure3d/mg_band.glsl) relax: a boundary sweep (McAdams et al. 2010, §4).
layout(local_size_x = SWEEP_THREADS_X, local_size_y = SWEEP_THREADS_Y) in;
#include "pressure3d/operator.glsl"

uniform sampler2D u_r;
#ifndef ZERO_GUESS
uniform sampler2D u_z;
#endif
#ifdef CORRECT
uniform Grid3 u_coarse;
uniform sampler2D u_coarseZ;
#endif
uniform float u_omega;  // the over-relaxation (mg_smooth.glsl)
#ifdef BAND
uniform sampler2D u_band;
#endif
uniform int u_first;   // the colour relaxed first ((i + j + k) & 1)
uniform int u_chunk;   // slices a workgroup relaxes
uniform int u_slices;  // slices of the texture, nz and the unused tiles'

const int kWidth = SWEEP_THREADS_X, kHeight = SWEEP_THREADS_Y;
shared vec4 s_z[4 * SWEEP_THREADS_X * SWEEP_THREADS_Y];

int slotOf(int k, int lx, int ly) { return ((k & 3) * kHeight + ly) * kWidth + lx; }

GridCursor cursorIn(int k, ivec2 q) {
  GridCursor c;
  c.b = ivec3(q, k);
  c.column = k % u_grid.size.w;
  c.texel = gridSliceOrigin(u_grid, k) + q;
  return c;
}

// z of slice k at this invocation's texel before the sweep (0 beyond the grid).
vec4 oldZ(GridCursor c) {
  if (!gridInside(u_grid, c.b)) return vec4(0.0);
#if defined(ZERO_GUESS)
  return vec4(0.0);
#elif defined(CORRECT)
  GridCursor parent = gridCursorOf(u_coarse, c.b / 2);
  vec4 coarse = texelFetch(u_coarseZ, parent.texel, 0);
  vec4 d = texelFetch(u_diagonal, c.texel, 0);
  return onEquations(d, texelFetch(u_z, c.texel, 0) + ((c.b.x & 1) == 0 ? coarse.xxyy : coarse.zzww));
#else
  return texelFetch(u_z, c.texel, 0);
#endif
}

// The block at the cursor (this invocation's (lx, ly) of slice k) relaxed in `colour`,
// given its diagonal and right-hand side texels.
vec4 relaxed(GridCursor c, int lx, int ly, int colour, vec4 d, vec4 r) {
  int k = c.b.z;
  vec4 z = s_z[slotOf(k, lx, ly)];
  Around a;
  a.west = vec4(lx > 0 ? s_z[slotOf(k, lx - 1, ly)].w : 0.0, z.xyz);
  a.east = vec4(z.yzw, lx + 1 < kWidth ? s_z[slotOf(k, lx + 1, ly)].x : 0.0);
  a.south = s_z[slotOf(k, lx, ly - 1)];
  a.north = s_z[slotOf(k, lx, ly + 1)];
  a.down = s_z[slotOf(k - 1, lx, ly)];
  a.up = s_z[slotOf(k + 1, lx, ly)];
  vec4 relaxedZ = mix(z, (r + vanishingNeighbourSum(a, c)) / d, u_omega);
  // Channel m holds cell 4q + m, whose colour is (m + j + k) & 1 (4q is even).
  bvec4 ofColour = equal((ivec4(0, 1, 2, 3) + ivec4(c.b.y + c.b.z)) & ivec4(1), ivec4(colour));
#ifdef BAND
  ofColour = bvec4(ivec4(ofColour) & ivec4(greaterThan(texelFetch(u_band, c.texel, 0), vec4(0.5))));
#endif
  return onEquations(d, mix(z, relaxedZ, ofColour));
}

void main() {
  int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
  ivec2 q = ivec2(gl_WorkGroupID.xy) * ivec2(kWidth - 2, kHeight - 4) + ivec2(lx - 1, ly - 2);
  int k0 = int(gl_WorkGroupID.z) * u_chunk, k1 = min(k0 + u_chunk, u_slices);
  int nz = u_grid.size.z;
  int second = 1 - u_first;
  // The tile without its halo, and the tile with the one-block halo of the first colour.
  bool onTile = lx >= 1 && lx < kWidth - 1 && ly >= 2 && ly < kHeight - 2 && q.x < u_grid.tileWidth &&
                q.y < u_grid.size.y;
  bool firstHalo = ly >= 1 && ly < kHeight - 1;

  // Software pipelining: the fetches for step t + 1 (slice t + 2's z, slice t + 1's diagonal
  // and right-hand side) are issued at step t and used one step later, so that their
  // memory latency overlaps the step's relaxations instead of stalling at its barriers.
  // Cursors step from slice to slice by additions (gridStep): the integer divisions of
  // cursorIn, once a slice for each of three cursors, cost more than the memory they wait on.
  GridCursor start = cursorIn(k0, q);
  GridCursor before = gridStep(u_grid, start, ivec3(0, 0, -1));
  if (k0 >= 2) s_z[slotOf(k0 - 2, lx, ly)] = oldZ(gridStep(u_grid, before, ivec3(0, 0, -1)));
  else s_z[slotOf(k0 - 2, lx, ly)] = vec4(0.0);
  s_z[slotOf(k0 - 1, lx, ly)] = k0 >= 1 ? oldZ(before) : vec4(0.0);
  vec4 zNext = k0 < nz ? oldZ(start) : vec4(0.0);
  GridCursor c = before;                             // slice t
  GridCursor cNext = start;                          // slice t + 1
  GridCursor cLoad = gridStep(u_grid, start, ivec3(0, 0, 1));  // slice t + 2
  bool relaxFirst = firstHalo && k0 >= 1 && gridInside(u_grid, c.b);
  vec4 d = relaxFirst ? texelFetch(u_diagonal, c.texel, 0) : vec4(0.0);
  vec4 r = relaxFirst ? texelFetch(u_r, c.texel, 0) : vec4(0.0);
  vec4 dPrevious = vec4(0.0), rPrevious = vec4(0.0);
  for (int t = k0 - 1; t <= k1; ++t) {
    s_z[slotOf(t + 1, lx, ly)] = zNext;
    bool relaxNext = firstHalo && gridInside(u_grid, cNext.b);
    vec4 dNext = relaxNext ? texelFetch(u_diagonal, cNext.texel, 0) : vec4(0.0);
    vec4 rNext = relaxNext ? texelFetch(u_r, cNext.texel, 0) : vec4(0.0);
    zNext = t + 2 < nz && t + 2 <= k1 + 1 ? oldZ(cLoad) : vec4(0.0);
    barrier();
    // In place: a neighbour reads this texel's other colour, which the write leaves as it
    // was, and this colour only into the channels it discards.
    if (relaxFirst) s_z[slotOf(t, lx, ly)] = relaxed(c, lx, ly, u_first, d, r);
    barrier();
    int k = t - 1;
    if (onTile && k >= k0 && k < k1) {
      GridCursor below = gridStep(u_grid, c, ivec3(0, 0, -1));
      imageStore(u_image0, below.texel, k < nz ? relaxed(below, lx, ly, second, dPrevious, rPrevious) : vec4(0.0));
    }
    dPrevious = d;
    rPrevious = r;
    d = dNext;
    r = rNext;
    c = cNext;
    cNext = cLoad;
    cLoad = gridStep(u_grid, cLoad, ivec3(0, 0, 1));
    relaxFirst = relaxNext;
    barrier();
  }
}
