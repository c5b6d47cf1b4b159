// The coarse end of a V-cycle in one dispatch (compute backend): every level from the
// block level down to the coarsest, with all their x and b in shared memory of one
// workgroup. Below about 33^2 nodes a level's dispatches (2 or more per level and cycle)
// are pure latency; here a pass becomes a barrier.
// The same mathematics as the multi-pass cycle (Multigrid::cycleAt, Bolz §4.2): weighted
// Jacobi, residual, full weighting P = 1/4 S^T (coarse fixed nodes get 0), bilinear
// interpolation S (fixed fine nodes untouched), fixed nodes x = b, the coarsest level by
// its (pseudo-)inverse or by Jacobi sweeps. Node (i, j) of level m is s_x[u_offset[m] +
// i + nx j]. The residual is not stored: the projection evaluates it at its nine fine
// nodes (a few dozen L1-cached fetches per coarse node, against a shared array that
// would not fit for 65^2).
// Inputs: u_b (layered b of the block level), u_x (its x unless ZERO_GUESS), u_coeffs
// (the nine entries of every node of every block level, three texels a node from
// u_coeffOffset[m], 1024 texels a row; then from u_flagOffset one bit a node, 16 to a
// float: the node's entries equal u_reference[9 m ..], its level's reference stencil;
// Multigrid::buildBlockData), u_inverse (DIRECT: the coarsest (pseudo-)inverse in node
// order, row k = node k, four columns a texel). Output: u_image0, the block level's
// layered x with its border in sync.
// Speed: without the flags every node's entries are three dependent fetches, the latency
// of which one workgroup cannot hide; flagged nodes run on shared memory and uniforms alone.
// With at most two nodes an invocation (the tiled sweeps' block) an invocation holds its
// nodes' entries in registers through a level's sweeps, so that the fetches of unflagged
// nodes come once a visit instead of once a sweep. RESIDUAL_SHARED: the pre-smoothing ends
// with the residual of every node in s_r (RESIDUAL_NODES: the block level's nodes), which
// the projection reads, instead of evaluating it at the nine fine nodes of every coarse
// node (each fine node two to four times, its entries fetched each time).
layout(local_size_x = 1024) in;
#include "multigrid/layered.glsl"

uniform ivec4 u_grid;          // the block level's layered grid
uniform sampler2D u_b;
uniform sampler2D u_x;
uniform sampler2D u_coeffs;
uniform sampler2D u_inverse;
uniform int u_nx[BLOCK_LEVELS];
uniform int u_ny[BLOCK_LEVELS];
uniform int u_offset[BLOCK_LEVELS];
uniform int u_coeffOffset[BLOCK_LEVELS];
uniform float u_reference[BLOCK_LEVELS * 9];
uniform int u_flagOffset;
uniform float u_omega;
uniform int u_pre;
uniform int u_post;
uniform int u_coarseIterations;

// s_b has three zero slots past the coarsest level for the direct solve's last texel.
shared float s_x[SHARED_NODES];
shared float s_b[SHARED_NODES + 3];
shared uint s_flags[(SHARED_NODES + 63) / 64 * 2];
#ifdef RESIDUAL_SHARED
shared float s_r[RESIDUAL_NODES];
#endif
#if NODES_PER_THREAD <= 2
#define HELD_STENCILS
#endif

const int kThreads = 1024;

vec4 coeffTexel(int index) { return texelFetch(u_coeffs, ivec2(index & 1023, index >> 10), 0); }

// The nine entries of node k of level m: a[0..8] as (dx + 1) + 3 (dy + 1).
void stencilAt(int m, int k, out float a[9]) {
  int node = u_offset[m] + k;
  if ((s_flags[node >> 5] & (1u << (node & 31))) != 0u) {
    for (int d = 0; d < 9; ++d) a[d] = u_reference[9 * m + d];
    return;
  }
  int base = u_coeffOffset[m] + 3 * k;
  vec4 t0 = coeffTexel(base), t1 = coeffTexel(base + 1), t2 = coeffTexel(base + 2);
  a[0] = t0.x; a[1] = t0.y; a[2] = t0.z; a[3] = t0.w;
  a[4] = t1.x; a[5] = t1.y; a[6] = t1.z; a[7] = t1.w;
  a[8] = t2.x;
}

// (k % nx, k / nx) without an integer division (tens of instructions on a GPU, in every
// inner loop here): k < 2^13, so (k + 1/2) / nx stays well clear of integers in float.
ivec2 nodeOf(int k, int nx) {
  int j = int((float(k) + 0.5) / float(nx));
  return ivec2(k - j * nx, j);
}

// x at node (p, q) of the level at offset o, 0 outside it.
float xAt(int o, int nx, int ny, int p, int q) {
  return p >= 0 && q >= 0 && p < nx && q < ny ? s_x[o + p + nx * q] : 0.0;
}

// b - A x at node (i, j) of level m with entries a (0 at fixed nodes). Written out term by
// term: a loop over the nine entries with a bounds check indexes a[] dynamically, which
// puts it in local memory. Terms outside the grid add exactly 0 (finite entries), so the
// sum is the same.
float residualWith(float a[9], int m, int i, int j) {
  int nx = u_nx[m], ny = u_ny[m], o = u_offset[m], k = i + nx * j;
  if (a[4] == 0.0) return 0.0;
  float ax;
  if (i > 0 && j > 0 && i < nx - 1 && j < ny - 1) {  // interior: no bounds to check
    int c = o + k;
    ax = a[0] * s_x[c - nx - 1] + a[1] * s_x[c - nx] + a[2] * s_x[c - nx + 1] + a[3] * s_x[c - 1] + a[4] * s_x[c] +
         a[5] * s_x[c + 1] + a[6] * s_x[c + nx - 1] + a[7] * s_x[c + nx] + a[8] * s_x[c + nx + 1];
  } else {
    ax = a[0] * xAt(o, nx, ny, i - 1, j - 1) + a[1] * xAt(o, nx, ny, i, j - 1) + a[2] * xAt(o, nx, ny, i + 1, j - 1) +
         a[3] * xAt(o, nx, ny, i - 1, j) + a[4] * xAt(o, nx, ny, i, j) + a[5] * xAt(o, nx, ny, i + 1, j) +
         a[6] * xAt(o, nx, ny, i - 1, j + 1) + a[7] * xAt(o, nx, ny, i, j + 1) + a[8] * xAt(o, nx, ny, i + 1, j + 1);
  }
  return s_b[o + k] - ax;
}

float residualAt(int m, int i, int j) {
  float a[9];
  stencilAt(m, i + u_nx[m] * j, a);
  return residualWith(a, m, i, j);
}

// Weighted Jacobi sweeps on level m; zero: x is taken as 0 before the first; residual
// (RESIDUAL_SHARED): then b - A x into s_r.
void smoothLevel(int m, int sweeps, bool zero, bool residual) {
  int nx = u_nx[m], n = nx * u_ny[m], o = u_offset[m];
  if (zero) {
    for (int k = int(gl_LocalInvocationIndex); k < n; k += kThreads) s_x[o + k] = 0.0;
    barrier();
    if (sweeps == 0) {  // x = 0 at free nodes, b at fixed ones
      for (int k = int(gl_LocalInvocationIndex); k < n; k += kThreads) {
        float a[9];
        stencilAt(m, k, a);
        if (a[4] == 0.0) s_x[o + k] = s_b[o + k];
      }
      barrier();
    }
  }
#ifdef HELD_STENCILS
  int k0 = int(gl_LocalInvocationIndex), k1 = k0 + kThreads;
  ivec2 ij0 = nodeOf(k0, nx), ij1 = nodeOf(k1, nx);
  float a0[9], a1[9];
  for (int d = 0; d < 9; ++d) a0[d] = a1[d] = 0.0;
  if (k0 < n) stencilAt(m, k0, a0);
#if NODES_PER_THREAD > 1
  if (k1 < n) stencilAt(m, k1, a1);
#endif
  for (int s = 0; s < sweeps; ++s) {
    float next0 = 0.0, next1 = 0.0;
    if (k0 < n) next0 = a0[4] == 0.0 ? s_b[o + k0] : s_x[o + k0] + u_omega * residualWith(a0, m, ij0.x, ij0.y) / a0[4];
#if NODES_PER_THREAD > 1
    if (k1 < n) next1 = a1[4] == 0.0 ? s_b[o + k1] : s_x[o + k1] + u_omega * residualWith(a1, m, ij1.x, ij1.y) / a1[4];
#endif
    barrier();
    if (k0 < n) s_x[o + k0] = next0;
    if (k1 < n) s_x[o + k1] = next1;
    barrier();
  }
#ifdef RESIDUAL_SHARED
  if (residual) {
    if (k0 < n) s_r[k0] = residualWith(a0, m, ij0.x, ij0.y);
    if (k1 < n) s_r[k1] = residualWith(a1, m, ij1.x, ij1.y);
    barrier();
  }
#endif
#else
  for (int s = 0; s < sweeps; ++s) {
    float next[NODES_PER_THREAD];
    for (int t = 0; t < NODES_PER_THREAD; ++t) {
      int k = int(gl_LocalInvocationIndex) + t * kThreads;
      if (k >= n) break;
      float a[9];
      stencilAt(m, k, a);
      ivec2 ij = nodeOf(k, nx);
      next[t] = a[4] == 0.0 ? s_b[o + k] : s_x[o + k] + u_omega * residualAt(m, ij.x, ij.y) / a[4];
    }
    barrier();
    for (int t = 0; t < NODES_PER_THREAD; ++t) {
      int k = int(gl_LocalInvocationIndex) + t * kThreads;
      if (k >= n) break;
      s_x[o + k] = next[t];
    }
    barrier();
  }
#ifdef RESIDUAL_SHARED
  if (residual) {
    for (int k = int(gl_LocalInvocationIndex); k < n; k += kThreads) {
      ivec2 ij = nodeOf(k, nx);
      s_r[k] = residualAt(m, ij.x, ij.y);
    }
    barrier();
  }
#endif
#endif
}

float subdivision(int fx, int fy) {
  float sx = fx == 0 ? 1.0 : (abs(fx) == 1 ? 0.5 : 0.0);
  float sy = fy == 0 ? 1.0 : (abs(fy) == 1 ? 0.5 : 0.0);
  return sx * sy;
}

// b_{m+1} = P (b_m - A_m x_m); 0 at coarse fixed nodes.
void projectLevel(int m) {
  int fnx = u_nx[m], fny = u_ny[m];
  int cnx = u_nx[m + 1], n = cnx * u_ny[m + 1], co = u_offset[m + 1];
  for (int K = int(gl_LocalInvocationIndex); K < n; K += kThreads) {
    ivec2 IJ = nodeOf(K, cnx);
    int I = IJ.x, J = IJ.y;
    float a[9];
    stencilAt(m + 1, K, a);
    float s = 0.0;
    if (a[4] != 0.0)
      for (int j = 2 * J - 1; j <= 2 * J + 1; ++j)
        for (int i = 2 * I - 1; i <= 2 * I + 1; ++i)
          if (i >= 0 && j >= 0 && i < fnx && j < fny) {
#ifdef RESIDUAL_SHARED
            s += 0.25 * subdivision(i - 2 * I, j - 2 * J) * s_r[i + fnx * j];
#else
            s += 0.25 * subdivision(i - 2 * I, j - 2 * J) * residualAt(m, i, j);
#endif
          }
    s_b[co + K] = s;
  }
  barrier();
}

// x_m += S x_{m+1} at free nodes.
void interpolateLevel(int m) {
  int nx = u_nx[m], n = nx * u_ny[m], o = u_offset[m];
  int cnx = u_nx[m + 1], co = u_offset[m + 1];
  for (int k = int(gl_LocalInvocationIndex); k < n; k += kThreads) {
    float a[9];
    stencilAt(m, k, a);
    if (a[4] == 0.0) continue;
    ivec2 ij = nodeOf(k, nx);
    int i = ij.x, j = ij.y;
    float s = 0.0;
    for (int J = j >> 1; J <= (j + 1) >> 1; ++J)
      for (int I = i >> 1; I <= (i + 1) >> 1; ++I) s += subdivision(i - 2 * I, j - 2 * J) * s_x[co + I + cnx * J];
    s_x[o + k] += s;
  }
  barrier();
}

void coarseLevel(int m) {
  int n = u_nx[m] * u_ny[m], o = u_offset[m];
#ifdef DIRECT
  float next[NODES_PER_THREAD];
  for (int t = 0; t < NODES_PER_THREAD; ++t) {
    int k = int(gl_LocalInvocationIndex) + t * kThreads;
    if (k >= n) break;
    float s = 0.0;
    for (int c = 0; c < n; c += 4) {
      vec4 w = texelFetch(u_inverse, ivec2(c >> 2, k), 0);
      s += w.x * s_b[o + c] + w.y * s_b[o + c + 1] + w.z * s_b[o + c + 2] + w.w * s_b[o + c + 3];
    }
    next[t] = s;
  }
  // s_x of this level is not read above: write directly.
  for (int t = 0; t < NODES_PER_THREAD; ++t) {
    int k = int(gl_LocalInvocationIndex) + t * kThreads;
    if (k >= n) break;
    s_x[o + k] = next[t];
  }
  barrier();
#else
  smoothLevel(m, u_coarseIterations, true, false);
#endif
}

void main() {
  int tid = int(gl_LocalInvocationIndex);
  // The flags: texel e holds words 2e and 2e + 1, each as two 16-bit halves.
  for (int e = tid; e < (SHARED_NODES + 63) / 64; e += kThreads) {
    uvec4 h = uvec4(coeffTexel(u_flagOffset + e));
    s_flags[2 * e] = h.x | (h.y << 16);
    s_flags[2 * e + 1] = h.z | (h.w << 16);
  }
  if (tid < 3) s_b[SHARED_NODES + tid] = 0.0;
  // Load b (and x) of the block level from the layered textures.
  int nx0 = u_nx[0], n0 = nx0 * u_ny[0];
  for (int k = tid; k < n0; k += kThreads) {
    ivec3 slot = layeredSlot(u_grid, ivec2(k % nx0, k / nx0));
    s_b[k] = texelFetch(u_b, slot.xy, 0)[slot.z];
#ifndef ZERO_GUESS
    s_x[k] = texelFetch(u_x, slot.xy, 0)[slot.z];
#endif
  }
  barrier();
  for (int m = 0; m + 1 < BLOCK_LEVELS; ++m) {
#ifdef ZERO_GUESS
    bool zero = true;
#else
    bool zero = m > 0;
#endif
    smoothLevel(m, u_pre, zero, true);
    projectLevel(m);
  }
  coarseLevel(BLOCK_LEVELS - 1);
  for (int m = BLOCK_LEVELS - 2; m >= 0; --m) {
    interpolateLevel(m);
    smoothLevel(m, u_post, false, false);
  }
  // Write the block level's x, border duplicates included (the same node's value).
  ivec2 size = imageSize(u_image0);
  for (int e = tid; e < size.x * size.y; e += kThreads) {
    ivec2 t = ivec2(e % size.x, e / size.x);
    bvec4 halo = layeredHalo(u_grid, t);
    ivec4 i = layeredNodeX(u_grid, t.x), j = layeredNodeY(u_grid, t.y);
    vec4 v = vec4(0.0);
    for (int c = 0; c < 4; ++c)
      if (halo[c]) v[c] = s_x[i[c] + nx0 * j[c]];
    imageStore(u_image0, t, v);
  }
}
