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
// Texels are addressed virtually: invocation texel v stands for the node of each channel c
// that texel v would hold in c's part extended past its one-texel border (layered.glsl:
// node (v.x - 1 + qx sx, v.y - 1 + qy sy)), so that a node's neighbours are the same
// channel of the neighbouring texels everywhere, also two or more texels past a split.
// Texels that own all four channels read their own texels; others (the outer ring of the
// texture and beyond) gather each channel from its node's owner, and nodes outside the
// grid are fixed zeros. A node held by two workgroups (or as a border duplicate) is
// evaluated from the same values by the same operations: the results agree bit for bit,
// and the border of every field written comes out in sync, as with BORDER_IN_KERNEL.
//
// Inputs: u_grid, u_b, u_x (unless ZERO_GUESS: x = 0 before the first sweep), the stencil
// (stencil.glsl), u_omega. CORRECT: u_coarse, u_v (the coarse correction, border in sync;
// x += S v at free nodes first). RESTRICT: u_coarse, u_coarseCentre; ZERO_SWEEP also
// u_coarseOmega. u_origin: the virtual texel of the first workgroup's first tile texel.
// Outputs: u_image0 = x after the sweeps; RESTRICT: u_image1 = b of the coarse level
// (projected at owned free nodes, zero elsewhere), ZERO_SWEEP: u_image2 = the coarse
// level's first sweep from zero (restrict_full_weighting.glsl).
layout(local_size_x = TILE_THREADS, local_size_y = TILE_THREADS) in;
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"

uniform ivec4 u_grid;
uniform sampler2D u_b;
#ifndef ZERO_GUESS
uniform sampler2D u_x;
#endif
uniform float u_omega;
uniform ivec2 u_origin;
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

// Channel c of a texel without dynamic indexing (which can move arrays to local memory).
float channelOf(vec4 t, int c) { return c == 0 ? t.x : (c == 1 ? t.y : (c == 2 ? t.z : t.w)); }

// Where the four nodes of a texel (one a channel) live in a layered grid: their owners'
// texels and channels, computed once for all the fields a texel gathers, and which nodes
// lie inside the grid (the others read a clamped node and are zeroed).
struct Slots {
  ivec2 t0, t1, t2, t3;
  ivec4 channel;
  bvec4 inside;
};
Slots slotsOf(ivec4 g, ivec4 i, ivec4 j) {
  Slots s;
  // (bvec4 has no &&: the product of the three tests)
  s.inside = bvec4(ivec4(greaterThanEqual(min(i, j), ivec4(0))) * ivec4(lessThan(i, ivec4(g.x))) *
                   ivec4(lessThan(j, ivec4(g.y))));
  ivec4 ci = clamp(i, ivec4(0), ivec4(g.x - 1)), cj = clamp(j, ivec4(0), ivec4(g.y - 1));
  ivec4 qx = ivec4(greaterThanEqual(ci, ivec4(g.z))), qy = ivec4(greaterThanEqual(cj, ivec4(g.w)));
  ivec4 tx = ci - qx * g.z + 1, ty = cj - qy * g.w + 1;
  s.t0 = ivec2(tx.x, ty.x);
  s.t1 = ivec2(tx.y, ty.y);
  s.t2 = ivec2(tx.z, ty.z);
  s.t3 = ivec2(tx.w, ty.w);
  s.channel = qx + 2 * qy;
  return s;
}
// The slots of texel v's own nodes (layered.glsl: node (v.x - 1 + qx sx, v.y - 1 + qy sy)).
Slots slotsOfTexel(ivec4 g, ivec2 v) { return slotsOf(g, layeredNodeX(g, v.x), layeredNodeY(g, v.y)); }

// Field f at the four nodes (zero outside the grid).
vec4 gathered(sampler2D f, Slots s) {
  vec4 t = vec4(channelOf(texelFetch(f, s.t0, 0), s.channel.x), channelOf(texelFetch(f, s.t1, 0), s.channel.y),
                channelOf(texelFetch(f, s.t2, 0), s.channel.z), channelOf(texelFetch(f, s.t3, 0), s.channel.w));
  return mix(vec4(0.0), t, s.inside);
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
}

void main() {
  ivec2 l = ivec2(gl_LocalInvocationID.xy);
  int me = slotOf(l);
  ivec2 v = u_origin + ivec2(gl_WorkGroupID.xy) * kTile - HALO + l;

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
      A[0] = texelFetch(u_A0, v, 0); A[1] = texelFetch(u_A1, v, 0); A[2] = texelFetch(u_A2, v, 0);
      A[3] = texelFetch(u_A3, v, 0); A[4] = texelFetch(u_A4, v, 0); A[5] = texelFetch(u_A5, v, 0);
      A[6] = texelFetch(u_A6, v, 0); A[7] = texelFetch(u_A7, v, 0); A[8] = texelFetch(u_A8, v, 0);
    }
  } else {
    b = gathered(u_b, slots);
#ifndef ZERO_GUESS
    x = gathered(u_x, slots);
#endif
    A[0] = gathered(u_A0, slots); A[1] = gathered(u_A1, slots); A[2] = gathered(u_A2, slots);
    A[3] = gathered(u_A3, slots); A[4] = gathered(u_A4, slots); A[5] = gathered(u_A5, slots);
    A[6] = gathered(u_A6, slots); A[7] = gathered(u_A7, slots); A[8] = gathered(u_A8, slots);
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
      next = x + scale * (b - weightedSum(A, me));
    }
    x = mix(b, next, free);
    barrier();
    s_x[me] = x;
    barrier();
  }

  ivec2 size = imageSize(u_image0);
  bool inTile = all(greaterThanEqual(l, ivec2(HALO))) && all(lessThan(l, ivec2(HALO + kTile)));
  if (inTile && all(greaterThanEqual(v, ivec2(0))) && all(lessThan(v, size)))
    imageStore(u_image0, v, mix(vec4(0.0), x, layeredHalo(u_grid, v)));

#ifdef RESTRICT
  // r = b - A x at free nodes (residual.glsl), then b_2h = P r at the coarse texels T with
  // 2T - 1 in the tile (restrict_full_weighting.glsl).
  vec4 r;
  r = mix(vec4(0.0), b - weightedSum(A, me), free);
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
    vec4 centre = all(owned) ? texelFetch(u_coarseCentre, T, 0) : gathered(u_coarseCentre, slotsOfTexel(u_coarse, T));
    vec4 coarseB = mix(vec4(0.0), projected, notEqual(centre, vec4(0.0)));
    imageStore(u_image1, T, mix(vec4(0.0), coarseB, owned));
#ifdef ZERO_SWEEP
    vec4 swept = mix(coarseB, u_coarseOmega * coarseB / centre, notEqual(centre, vec4(0.0)));
    imageStore(u_image2, T, mix(vec4(0.0), swept, layeredHalo(u_coarse, T)));
#endif
  }
#endif
}
