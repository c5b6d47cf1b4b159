// Several weighted Jacobi sweeps of one level in one dispatch (compute backend, borders in
// the kernel), with the coarse-grid correction before them (CORRECT) or the residual and
// its projection to the next coarser level after them (RESTRICT): the passes of Bolz
// §4.2's V-cycle ("Relax", "Interpolation", "Projection") fused on a tile in shared memory,
// the mathematics of smooth.glsl, correct_smooth.glsl, residual.glsl and
// restrict_full_weighting.glsl (a sweep multiplies by omega D^-1, computed once, where they
// divide by D: the results differ from theirs in the last bits).
//
// A workgroup of TILE_THREADS^2 invocations owns a tile of (TILE_THREADS - 2 HALO)^2 texels
// and holds it with a halo of HALO texels, one invocation a texel, x of all of them in
// shared memory. Each sweep is valid one texel less far out, so the tile's own texels are
// exact after HALO sweeps (the halo is relaxed by every workgroup that needs it: no
// workgroup waits for another); RESTRICT needs two texels more (the residual, then its
// 3x3 projection).
//
// Texels are addressed virtually (virtual_texels.glsl), so that a node's neighbours are
// the same channel of the neighbouring texels everywhere, also two or more texels past a
// split. Texels that own all four channels read their own texels; others (the outer ring
// of the texture and beyond) gather each channel from its node's owner, and nodes outside
// the grid are fixed zeros (and not fetched). A node held by two workgroups (or as a
// border duplicate) is evaluated from the same values by the same operations: the results
// agree bit for bit, and the border of every field written comes out in sync, as with
// BORDER_IN_KERNEL.
// Workgroups run the outer ring of tiles first: theirs gather, and take longest.
//
// TILE_LIST: the tiles are listed (Multigrid::tileSplit) instead of all u_tiles of them:
// workgroup k takes tile u_tileList[k] (texel (k % 1024, k / 1024): the tile's x and y).
// The pass dispatches the listed tiles that need the stencil textures with this program
// and, with UNIFORM_TILE, the others (multigrid/tile_classes.glsl: every texel of the tile
// and its halo owns its four nodes and is flagged constant) from their own list: they
// read x and b only, take the stencil from the uniforms and every node as free, and hold
// no stencil in registers, so that more of their workgroups fit on a multiprocessor.
//
// FIVE_POINT: the corner entries are zero (LayeredStencil::fivePoint): they are neither
// read nor multiplied (adding 0 x would not change a sum's bits).
//
// Inputs: u_grid, u_b, u_x (unless ZERO_GUESS: x = 0 before the first sweep), the stencil
// (stencil.glsl), u_omega, u_tiles (tiles a row and a column), u_origin (the virtual texel
// of the first tile's first texel). CORRECT: u_coarse, u_v (the coarse correction, border
// in sync; x += S v at free nodes first). RESTRICT: u_coarse, u_coarseCentre; ZERO_SWEEP
// also u_coarseOmega.
// Outputs: u_image0 = x after the sweeps; RESTRICT: u_image1 = b of the coarse level
// (projected at owned free nodes, zero elsewhere), ZERO_SWEEP: u_image2 = the coarse
// level's first sweep from zero (restrict_full_weighting.glsl).
layout(local_size_x = TILE_THREADS, local_size_y = TILE_THREADS) in;
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
#include "multigrid/virtual_texels.glsl"

uniform ivec4 u_grid;
uniform sampler2D u_b;
#ifndef ZERO_GUESS
uniform sampler2D u_x;
#endif
uniform float u_omega;
uniform ivec2 u_origin;
uniform ivec2 u_tiles;
#ifdef TILE_LIST
#ifdef UNIFORM_TILE
uniform sampler2D u_uniformTiles;
#define TILE_LIST_SAMPLER u_uniformTiles
#else
uniform sampler2D u_stencilTiles;
#define TILE_LIST_SAMPLER u_stencilTiles
#endif
#endif
#if defined(CORRECT) || defined(RESTRICT)
uniform ivec4 u_coarse;
#endif
#ifdef CORRECT
uniform sampler2D u_v;
#endif
#ifdef RESTRICT
uniform sampler2D u_coarseCentre;
uniform float u_coarseOmega;
#endif

const int kTile = TILE_THREADS - 2 * HALO;
shared vec4 s_x[(TILE_THREADS + 2) * (TILE_THREADS + 2)];

// The nine stencil entries of one node (columns of three: entry k at [k / 3][k % 3]) from
// its owner's texel t and channel c: at an owner flagged constant the reference's channel c
// (the same bits as the stored entries), else the stored entries; zero outside the grid.
mat3 nodeStencil(ivec2 t, int c, bool inside) {
  if (!inside) return mat3(0.0);
#ifdef CONSTANT_STENCIL
  if (stencilConstant(t))
    return mat3(channelOf(u_S0, c), channelOf(u_S1, c), channelOf(u_S2, c), channelOf(u_S3, c), channelOf(u_S4, c),
                channelOf(u_S5, c), channelOf(u_S6, c), channelOf(u_S7, c), channelOf(u_S8, c));
#endif
#ifdef FIVE_POINT
  return mat3(0.0, channelOf(texelFetch(u_A1, t, 0), c), 0.0, channelOf(texelFetch(u_A3, t, 0), c),
              channelOf(texelFetch(u_A4, t, 0), c), channelOf(texelFetch(u_A5, t, 0), c), 0.0,
              channelOf(texelFetch(u_A7, t, 0), c), 0.0);
#else
  return mat3(channelOf(texelFetch(u_A0, t, 0), c), channelOf(texelFetch(u_A1, t, 0), c),
              channelOf(texelFetch(u_A2, t, 0), c), channelOf(texelFetch(u_A3, t, 0), c),
              channelOf(texelFetch(u_A4, t, 0), c), channelOf(texelFetch(u_A5, t, 0), c),
              channelOf(texelFetch(u_A6, t, 0), c), channelOf(texelFetch(u_A7, t, 0), c),
              channelOf(texelFetch(u_A8, t, 0), c));
#endif
}

// The stencil entries of a virtual texel that does not own all its nodes.
void gatheredStencil(Slots slots, out vec4 A[9]) {
  mat3 n0 = nodeStencil(slots.t0, slots.channel.x, slots.inside.x);
  mat3 n1 = nodeStencil(slots.t1, slots.channel.y, slots.inside.y);
  mat3 n2 = nodeStencil(slots.t2, slots.channel.z, slots.inside.z);
  mat3 n3 = nodeStencil(slots.t3, slots.channel.w, slots.inside.w);
#define ENTRY(k) A[k] = vec4(n0[k / 3][k % 3], n1[k / 3][k % 3], n2[k / 3][k % 3], n3[k / 3][k % 3])
  ENTRY(0); ENTRY(1); ENTRY(2); ENTRY(3); ENTRY(4); ENTRY(5); ENTRY(6); ENTRY(7); ENTRY(8);
#undef ENTRY
}

#ifdef CORRECT
// The four coarse nodes around each node of texel v, whose mean is S v there (interpolated()
// of correct_smooth.glsl, the same order). Both ways of fetching them end here, so that the
// sum after them is one code path: a node and its duplicates get the same bits.
void coarseAround(ivec2 v, bool direct, Slots fine, out vec4 s00, out vec4 s10, out vec4 s01, out vec4 s11) {
  if (direct) {
    ivec2 c0 = (v + 1) / 2, c1 = (v + 2) / 2;
    s00 = texelFetch(u_v, c0, 0);
    s10 = texelFetch(u_v, ivec2(c1.x, c0.y), 0);
    s01 = texelFetch(u_v, ivec2(c0.x, c1.y), 0);
    s11 = texelFetch(u_v, c1, 0);
    return;
  }
  // Coarse nodes floor(i / 2) and floor((i + 1) / 2) of each node i (inside the coarse grid
  // for fine nodes inside the fine grid; others are zeroed).
  ivec4 i = layeredNodeX(u_grid, v.x), j = layeredNodeY(u_grid, v.y);
  ivec4 i0 = (i - (i & 1)) / 2, j0 = (j - (j & 1)) / 2;
  ivec4 i1 = (i + 1 - ((i + 1) & 1)) / 2, j1 = (j + 1 - ((j + 1) & 1)) / 2;
  Slots m = slotsOf(u_coarse, i0, j0);
  m.inside = fine.inside;
  s00 = gathered(u_v, m);
  m = slotsOf(u_coarse, i1, j0);
  m.inside = fine.inside;
  s10 = gathered(u_v, m);
  m = slotsOf(u_coarse, i0, j1);
  m.inside = fine.inside;
  s01 = gathered(u_v, m);
  m = slotsOf(u_coarse, i1, j1);
  m.inside = fine.inside;
  s11 = gathered(u_v, m);
}
#endif

// Shared memory holds the workgroup's texels with a one-slot frame that nothing writes, so
// that the nine neighbours of every slot are in bounds without a clamp: the frame's values
// reach only slots outside the valid region, whose results are never used.
const int kRow = TILE_THREADS + 2;
int slotOf(ivec2 l) { return (l.y + 1) * kRow + l.x + 1; }

// sum over k of A^k X[k] at slot `me` (stencil.glsl's order: left to right, the same as
// stencilSum's expression).
vec4 weightedSum(vec4 A[9], int me) {
#ifdef FIVE_POINT
  vec4 sum = A[1] * s_x[me - kRow];
  sum += A[3] * s_x[me - 1];
  sum += A[4] * s_x[me];
  sum += A[5] * s_x[me + 1];
  sum += A[7] * s_x[me + kRow];
  return sum;
#else
  vec4 sum = A[0] * s_x[me - kRow - 1];
  sum += A[1] * s_x[me - kRow];
  sum += A[2] * s_x[me - kRow + 1];
  sum += A[3] * s_x[me - 1];
  sum += A[4] * s_x[me];
  sum += A[5] * s_x[me + 1];
  sum += A[6] * s_x[me + kRow - 1];
  sum += A[7] * s_x[me + kRow];
  sum += A[8] * s_x[me + kRow + 1];
  return sum;
#endif
}

// The same sum with the reference stencil (uniform tiles), in the same order.
vec4 uniformSum(int me) {
#ifdef FIVE_POINT
  vec4 sum = u_S1 * s_x[me - kRow];
  sum += u_S3 * s_x[me - 1];
  sum += u_S4 * s_x[me];
  sum += u_S5 * s_x[me + 1];
  sum += u_S7 * s_x[me + kRow];
  return sum;
#else
  vec4 sum = u_S0 * s_x[me - kRow - 1];
  sum += u_S1 * s_x[me - kRow];
  sum += u_S2 * s_x[me - kRow + 1];
  sum += u_S3 * s_x[me - 1];
  sum += u_S4 * s_x[me];
  sum += u_S5 * s_x[me + 1];
  sum += u_S6 * s_x[me + kRow - 1];
  sum += u_S7 * s_x[me + kRow];
  sum += u_S8 * s_x[me + kRow + 1];
  return sum;
#endif
}

#ifdef UNIFORM_TILE
#define STENCIL_SUM(me) uniformSum(me)
#else
#define STENCIL_SUM(me) weightedSum(A, me)
#endif

// Tile of the k-th workgroup: the outer ring of tiles first, then the rest row by row.
ivec2 tileOf(int k) {
  ivec2 n = u_tiles;
  int ring = n.x * n.y - max(n.x - 2, 0) * max(n.y - 2, 0);
  if (k >= ring) {
    int j = k - ring, w = n.x - 2;
    return ivec2(1 + j % w, 1 + j / w);
  }
  if (k < n.x) return ivec2(k, 0);
  if (n.y > 1 && k < 2 * n.x) return ivec2(k - n.x, n.y - 1);
  int j = k - (n.y > 1 ? 2 * n.x : n.x);  // the sides' tiles, left and right in turn
  if (n.x == 1) return ivec2(0, 1 + j);
  return ivec2((j & 1) * (n.x - 1), 1 + j / 2);
}

void main() {
  ivec2 l = ivec2(gl_LocalInvocationID.xy);
  int me = slotOf(l);
#ifdef TILE_LIST
  int listed = int(gl_WorkGroupID.x);
  ivec2 tile = ivec2(texelFetch(TILE_LIST_SAMPLER, ivec2(listed & 1023, listed >> 10), 0).xy);
#else
  ivec2 tile = tileOf(int(gl_WorkGroupID.x) + u_tiles.x * int(gl_WorkGroupID.y));
#endif
  ivec2 v = u_origin + tile * kTile - HALO + l;

#ifdef UNIFORM_TILE
  // Every node of the tile is free and owned (tile_classes.glsl): x and b of its own texel.
  vec4 b = texelFetch(u_b, v, 0), x = vec4(0.0);
#ifndef ZERO_GUESS
  x = texelFetch(u_x, v, 0);
#endif
  vec4 scale = u_omega / u_S4;
#ifdef CORRECT
  {
    ivec2 c0 = (v + 1) / 2, c1 = (v + 2) / 2;
    vec4 s00 = texelFetch(u_v, c0, 0), s10 = texelFetch(u_v, ivec2(c1.x, c0.y), 0);
    vec4 s01 = texelFetch(u_v, ivec2(c0.x, c1.y), 0), s11 = texelFetch(u_v, c1, 0);
    x = x + 0.25 * (s00 + s10 + s01 + s11);
  }
#endif
#else
  // This texel's b, stencil and starting x.
  bool direct = all(layeredOwned(u_grid, v));
  Slots slots = slotsOfTexel(u_grid, v);
  vec4 b, x = vec4(0.0), A[9];
  if (direct) {
    b = texelFetch(u_b, v, 0);
#ifndef ZERO_GUESS
    x = texelFetch(u_x, v, 0);
#endif
    if (stencilConstant(v)) {
      A[0] = u_S0; A[1] = u_S1; A[2] = u_S2; A[3] = u_S3; A[4] = u_S4; A[5] = u_S5; A[6] = u_S6; A[7] = u_S7; A[8] = u_S8;
    } else {
#ifdef FIVE_POINT
      A[0] = vec4(0.0); A[2] = vec4(0.0); A[6] = vec4(0.0); A[8] = vec4(0.0);
#else
      A[0] = texelFetch(u_A0, v, 0); A[2] = texelFetch(u_A2, v, 0); A[6] = texelFetch(u_A6, v, 0); A[8] = texelFetch(u_A8, v, 0);
#endif
      A[1] = texelFetch(u_A1, v, 0); A[3] = texelFetch(u_A3, v, 0); A[4] = texelFetch(u_A4, v, 0);
      A[5] = texelFetch(u_A5, v, 0); A[7] = texelFetch(u_A7, v, 0);
    }
  } else {
    b = gathered(u_b, slots);
#ifndef ZERO_GUESS
    x = gathered(u_x, slots);
#endif
    gatheredStencil(slots, A);
  }
  bvec4 free = notEqual(A[4], vec4(0.0));
  // omega D^-1 once, a multiply a sweep instead of a division (inf at fixed nodes, which
  // take b instead).
  vec4 scale = u_omega / A[4];
#ifdef CORRECT
  vec4 s00, s10, s01, s11;
  coarseAround(v, direct, slots, s00, s10, s01, s11);
  x = mix(x, x + 0.25 * (s00 + s10 + s01 + s11), free);
#endif
#endif

  // The sweeps: fixed nodes (and nodes outside the grid: b = 0) take b.
  s_x[me] = x;
  barrier();
  for (int s = 0; s < SWEEPS; ++s) {
    vec4 next;
#ifdef ZERO_GUESS
    if (s == 0) {
      next = scale * b;
    } else
#endif
    {
      next = x + scale * (b - STENCIL_SUM(me));
    }
#ifdef UNIFORM_TILE
    x = next;
#else
    x = mix(b, next, free);
#endif
    barrier();
    s_x[me] = x;
    barrier();
  }

  bool inTile = all(greaterThanEqual(l, ivec2(HALO))) && all(lessThan(l, ivec2(HALO + kTile)));
#ifdef UNIFORM_TILE
  if (inTile) imageStore(u_image0, v, x);
#else
  ivec2 size = imageSize(u_image0);
  if (inTile && all(greaterThanEqual(v, ivec2(0))) && all(lessThan(v, size)))
    imageStore(u_image0, v, mix(vec4(0.0), x, layeredHalo(u_grid, v)));
#endif

#ifdef RESTRICT
  // r = b - A x at free nodes (residual.glsl), then b_2h = P r at the coarse texels T with
  // 2T - 1 in the tile (restrict_full_weighting.glsl).
#ifdef UNIFORM_TILE
  vec4 r = b - uniformSum(me);
#else
  vec4 r = mix(vec4(0.0), b - weightedSum(A, me), free);
#endif
  barrier();
  s_x[me] = r;
  barrier();
  ivec2 T = (v + 1) / 2;
  ivec2 coarseSize = imageSize(u_image1);
  if (inTile && all(equal((v + 1) & 1, ivec2(0))) && all(greaterThanEqual(T, ivec2(0))) && all(lessThan(T, coarseSize))) {
    vec4 sum = 4.0 * s_x[me];
    sum += 2.0 * (s_x[me - 1] + s_x[me + 1] + s_x[me - kRow] + s_x[me + kRow]);
    sum += s_x[me - kRow - 1] + s_x[me - kRow + 1] + s_x[me + kRow - 1] + s_x[me + kRow + 1];
    vec4 projected = sum / 16.0;
    bvec4 owned = layeredOwned(u_coarse, T);
#ifdef UNIFORM_TILE
    vec4 centre = texelFetch(u_coarseCentre, T, 0);  // T owns its nodes (tile_classes.glsl)
#else
    vec4 centre = all(owned) ? texelFetch(u_coarseCentre, T, 0) : gathered(u_coarseCentre, slotsOfTexel(u_coarse, T));
#endif
    vec4 coarseB = mix(vec4(0.0), projected, notEqual(centre, vec4(0.0)));
    imageStore(u_image1, T, mix(vec4(0.0), coarseB, owned));
#ifdef ZERO_SWEEP
    vec4 swept = mix(coarseB, u_coarseOmega * coarseB / centre, notEqual(centre, vec4(0.0)));
    imageStore(u_image2, T, mix(vec4(0.0), swept, layeredHalo(u_coarse, T)));
#endif
  }
#endif
}
