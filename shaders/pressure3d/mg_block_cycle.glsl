// The coarse end of a V-cycle of PressureMultigrid3D in one dispatch (compute backend): the
// block level and every coarser one, their z and r in shared memory of one workgroup, a
// pass of the multi-pass cycle becoming a barrier (below a few thousand cells a level's
// passes are pure latency). The same mathematics as the passes (pressure3d/mg_smooth.glsl,
// mg_restrict.glsl): `u_sweeps` over-relaxed red-black Gauss-Seidel sweeps, red first
// before the coarse correction and black first after it; the residual restricted as the
// sum of the children times 1/2; piecewise-constant correction on cells with an equation;
// on each level u_boundarySweeps sweeps of the boundary band's cells before the pre-smoothing
// and after the post-smoothing (McAdams et al. 2010, §4), the band marked here by the rule of
// mg_band.glsl (BAND_WIDTH face steps).
// Coarse levels have no face fractions or free surface: a cell's diagonal is the number of
// its faces to fluid or air (-1 on air cells, 0 on solid ones), held plus one in the low
// seven bits of a byte whose high bit marks the band.
// Cell (i, j, k) of block level m is at u_offset[m] + i + nx (j + ny k). Inputs: u_r (the
// block level's right-hand side, packed) and u_diagonal0 .. (each block level's diagonal
// field, packed); output u_image0, the block level's z, packed. BLOCK_THREADS invocations
// (as many as the context allows, up to 1024: the levels' passes are latency, and more
// invocations split each colour's cells into fewer rounds).
layout(local_size_x = BLOCK_THREADS) in;
#include "grid3d/grid.glsl"

uniform Grid3 u_levels[BLOCK_LEVELS];
uniform int u_offset[BLOCK_LEVELS];
uniform int u_sweeps;
uniform int u_boundarySweeps;
uniform float u_omega;  // the over-relaxation of the block levels (mg_smooth.glsl)
uniform sampler2D u_r;
uniform sampler2D u_diagonal0;
#if BLOCK_LEVELS > 1
uniform sampler2D u_diagonal1;
#endif
#if BLOCK_LEVELS > 2
uniform sampler2D u_diagonal2;
#endif
#if BLOCK_LEVELS > 3
uniform sampler2D u_diagonal3;
#endif
#if BLOCK_LEVELS > 4
uniform sampler2D u_diagonal4;
#endif
#if BLOCK_LEVELS > 5
uniform sampler2D u_diagonal5;
#endif
#if BLOCK_LEVELS > 6
uniform sampler2D u_diagonal6;
#endif
#if BLOCK_LEVELS > 7
uniform sampler2D u_diagonal7;
#endif

shared float s_z[SHARED_CELLS];
shared float s_r[SHARED_CELLS];
shared uint s_diagonal[(SHARED_CELLS + 3) / 4];  // a byte a cell: the diagonal + 1, 128 in the band

const int kThreads = BLOCK_THREADS;

float diagonalAt(int index) { return float((s_diagonal[index >> 2] >> (8 * (index & 3))) & 127u) - 1.0; }
bool inBand(int index) { return ((s_diagonal[index >> 2] >> (8 * (index & 3))) & 128u) != 0u; }

// (i, j, k) of cell c of an nx x ny level without integer divisions (tens of instructions
// each on a GPU): c < 2^16, so (c + 1/2) / n stays well clear of integers in float.
ivec3 cellOf(int c, int nx, int ny) {
  int k = int((float(c) + 0.5) / float(nx * ny));
  int rest = c - k * nx * ny;
  int j = int((float(rest) + 0.5) / float(nx));
  return ivec3(rest - j * nx, j, k);
}

// Every packed texel of level m: its four cells' diagonals (and for the block level r) into
// shared memory.
void load(int m, sampler2D diagonal, bool withR) {
  Grid3 g = u_levels[m];
  ivec2 size = ivec2(g.tileWidth * g.size.w, g.size.y * ((g.size.z + g.size.w - 1) / g.size.w));
  int texels = size.x * size.y;
  for (int t = int(gl_LocalInvocationIndex); t < texels; t += kThreads) {
    int row = int((float(t) + 0.5) / float(size.x));
    ivec2 texel = ivec2(t - row * size.x, row);
    ivec3 b = gridBlock(g, texel);
    if (b.z >= g.size.z) continue;
    vec4 d = texelFetch(diagonal, texel, 0);
    vec4 r = withR ? texelFetch(u_r, texel, 0) : vec4(0.0);
    for (int ch = 0; ch < 4; ++ch) {
      int i = 4 * b.x + ch;
      if (i >= g.size.x) break;
      int index = u_offset[m] + i + g.size.x * (b.y + g.size.y * b.z);
      atomicOr(s_diagonal[index >> 2], uint(d[ch] + 1.0) << (8 * (index & 3)));
      s_r[index] = r[ch];
      s_z[index] = 0.0;
    }
  }
}

// Marks the cells of level m's boundary band: with an equation, within BAND_WIDTH face steps
// of a cell without one or of the level's side.
void markBand(int m) {
  ivec3 n = u_levels[m].size.xyz;
  int o = u_offset[m], cells = n.x * n.y * n.z;
  for (int c = int(gl_LocalInvocationIndex); c < cells; c += kThreads) {
    if (diagonalAt(o + c) <= 0.0) continue;
    ivec3 p = cellOf(c, n.x, n.y);
    bool near = false;
    for (int dz = -BAND_WIDTH; dz <= BAND_WIDTH; ++dz) {
      for (int dy = -BAND_WIDTH; dy <= BAND_WIDTH; ++dy) {
        for (int dx = -BAND_WIDTH; dx <= BAND_WIDTH; ++dx) {
          ivec3 q = p + ivec3(dx, dy, dz);
          if (abs(dx) + abs(dy) + abs(dz) > BAND_WIDTH || near) continue;
          near = any(lessThan(q, ivec3(0))) || any(greaterThanEqual(q, n)) ||
                 diagonalAt(o + q.x + n.x * (q.y + n.y * q.z)) <= 0.0;
        }
      }
    }
    if (near) atomicOr(s_diagonal[(o + c) >> 2], 128u << (8 * ((o + c) & 3)));
  }
}

// One colour of a red-black sweep on level m (of its boundary band's cells alone: band).
// Invocation t takes the pair of cells 2q, 2q + 1 of a row (t numbering the pairs) and
// relaxes the one of the colour, so that no round leaves half its invocations idle.
void relax(int m, int colour, bool band) {
  ivec3 n = u_levels[m].size.xyz;
  int pairsX = (n.x + 1) / 2;
  int o = u_offset[m], pairs = pairsX * n.y * n.z;
  for (int t = int(gl_LocalInvocationIndex); t < pairs; t += kThreads) {
    ivec3 p = cellOf(t, pairsX, n.y);
    p.x = 2 * p.x + ((colour + p.y + p.z) & 1);
    if (p.x >= n.x) continue;
    int c = p.x + n.x * (p.y + n.y * p.z);
    float d = diagonalAt(o + c);
    if (d <= 0.0 || (band && !inBand(o + c))) continue;
    float sum = s_r[o + c];
    if (p.x > 0) sum += s_z[o + c - 1];
    if (p.x + 1 < n.x) sum += s_z[o + c + 1];
    if (p.y > 0) sum += s_z[o + c - n.x];
    if (p.y + 1 < n.y) sum += s_z[o + c + n.x];
    if (p.z > 0) sum += s_z[o + c - n.x * n.y];
    if (p.z + 1 < n.z) sum += s_z[o + c + n.x * n.y];
    s_z[o + c] = mix(s_z[o + c], sum / d, u_omega);
  }
  barrier();
}

float residualAt(int m, ivec3 p) {
  ivec3 n = u_levels[m].size.xyz;
  int o = u_offset[m], c = p.x + n.x * (p.y + n.y * p.z);
  float d = diagonalAt(o + c);
  if (d <= 0.0) return 0.0;
  float sum = 0.0;
  if (p.x > 0) sum += s_z[o + c - 1];
  if (p.x + 1 < n.x) sum += s_z[o + c + 1];
  if (p.y > 0) sum += s_z[o + c - n.x];
  if (p.y + 1 < n.y) sum += s_z[o + c + n.x];
  if (p.z > 0) sum += s_z[o + c - n.x * n.y];
  if (p.z + 1 < n.z) sum += s_z[o + c + n.x * n.y];
  return s_r[o + c] - (d * s_z[o + c] - sum);
}

// r of level m + 1 from level m's residual; z of level m + 1 zeroed.
void restrictTo(int m) {
  ivec3 fine = u_levels[m].size.xyz, n = u_levels[m + 1].size.xyz;
  int o = u_offset[m + 1], cells = n.x * n.y * n.z;
  for (int c = int(gl_LocalInvocationIndex); c < cells; c += kThreads) {
    ivec3 p = cellOf(c, n.x, n.y);
    float sum = 0.0;
    for (int child = 0; child < 8; ++child) {
      ivec3 q = 2 * p + ivec3(child & 1, (child >> 1) & 1, child >> 2);
      if (all(lessThan(q, fine))) sum += residualAt(m, q);
    }
    s_r[o + c] = diagonalAt(o + c) > 0.0 ? 0.5 * sum : 0.0;
    s_z[o + c] = 0.0;
  }
  barrier();
}

// z of level m += z of level m + 1 at the parent, on cells with an equation.
void correct(int m) {
  ivec3 n = u_levels[m].size.xyz, coarse = u_levels[m + 1].size.xyz;
  int o = u_offset[m], oc = u_offset[m + 1], cells = n.x * n.y * n.z;
  for (int c = int(gl_LocalInvocationIndex); c < cells; c += kThreads) {
    if (diagonalAt(o + c) <= 0.0) continue;
    ivec3 p = cellOf(c, n.x, n.y) / 2;
    s_z[o + c] += s_z[oc + p.x + coarse.x * (p.y + coarse.y * p.z)];
  }
  barrier();
}

void main() {
  for (int k = int(gl_LocalInvocationIndex); k < (SHARED_CELLS + 3) / 4; k += kThreads) s_diagonal[k] = 0u;
  barrier();
  load(0, u_diagonal0, true);
#if BLOCK_LEVELS > 1
  load(1, u_diagonal1, false);
#endif
#if BLOCK_LEVELS > 2
  load(2, u_diagonal2, false);
#endif
#if BLOCK_LEVELS > 3
  load(3, u_diagonal3, false);
#endif
#if BLOCK_LEVELS > 4
  load(4, u_diagonal4, false);
#endif
#if BLOCK_LEVELS > 5
  load(5, u_diagonal5, false);
#endif
#if BLOCK_LEVELS > 6
  load(6, u_diagonal6, false);
#endif
#if BLOCK_LEVELS > 7
  load(7, u_diagonal7, false);
#endif
  barrier();
  if (u_boundarySweeps > 0) {
    for (int m = 0; m < BLOCK_LEVELS; ++m) markBand(m);
    barrier();
  }
  for (int m = 0; m < BLOCK_LEVELS; ++m) {
    for (int s = 0; s < u_boundarySweeps; ++s) {
      relax(m, 0, true);
      relax(m, 1, true);
    }
    for (int s = 0; s < u_sweeps; ++s) {
      relax(m, 0, false);
      relax(m, 1, false);
    }
    if (m + 1 < BLOCK_LEVELS) restrictTo(m);
  }
  for (int m = BLOCK_LEVELS - 1; m >= 0; --m) {
    if (m + 1 < BLOCK_LEVELS) correct(m);
    for (int s = 0; s < u_sweeps; ++s) {
      relax(m, 1, false);
      relax(m, 0, false);
    }
    for (int s = 0; s < u_boundarySweeps; ++s) {
      relax(m, 1, true);
      relax(m, 0, true);
    }
  }
  // The block level's z, packed.
  Grid3 g = u_levels[0];
  ivec2 size = ivec2(g.tileWidth * g.size.w, g.size.y * ((g.size.z + g.size.w - 1) / g.size.w));
  int texels = size.x * size.y;
  for (int t = int(gl_LocalInvocationIndex); t < texels; t += kThreads) {
    int row = int((float(t) + 0.5) / float(size.x));
    ivec2 texel = ivec2(t - row * size.x, row);
    ivec3 b = gridBlock(g, texel);
    vec4 z = vec4(0.0);
    if (b.z < g.size.z) {
      for (int ch = 0; ch < 4; ++ch) {
        int i = 4 * b.x + ch;
        if (i < g.size.x) z[ch] = s_z[i + g.size.x * (b.y + g.size.y * b.z)];
      }
    }
    imageStore(u_image0, texel, z);
  }
}
