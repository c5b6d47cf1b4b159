// A 3D grid of cells in a flat 2D texture (stream/GridLayout3D.h): the one place kernels
// learn where cell (i, j, k) and its six neighbours are, and what lies beyond the grid.
// Slice k is a tile of tileWidth x ny texels at tile (k % tilesX, k / tilesX). A texel is
// addressed by its block b = (q, j, k): texel-column q of row j of slice k. Packed grids
// hold cells 4q .. 4q+3 of the row in .xyzw (the channels of cells x >= nx are zero);
// others hold cell (q, j, k) alone.
#ifndef TEXSTREAM_GRID3D_GRID_GLSL
#define TEXSTREAM_GRID3D_GRID_GLSL

struct Grid3 {
  ivec4 size;     // nx, ny, nz, tilesX
  int tileWidth;  // texels a tile row: ceil(nx / 4) packed, nx otherwise
};

// The texel where slice k's tile starts (one integer division: slow on GPUs, so kernels
// that fetch several texels of a slice take its origin once).
ivec2 gridSliceOrigin(Grid3 g, int k) {
  int tileY = k / g.size.w;
  return ivec2((k - tileY * g.size.w) * g.tileWidth, tileY * g.size.y);
}

// Block b -> texel of the flat texture (b inside the grid).
ivec2 gridTexel(Grid3 g, ivec3 b) { return gridSliceOrigin(g, b.z) + b.xy; }

// Texel of the flat texture -> block; b.z >= nz for texels of the unused tiles.
ivec3 gridBlock(Grid3 g, ivec2 texel) {
  int tileX = texel.x / g.tileWidth, tileY = texel.y / g.size.y;
  return ivec3(texel.x - tileX * g.tileWidth, texel.y - tileY * g.size.y, tileY * g.size.w + tileX);
}

bool gridInside(Grid3 g, ivec3 b) {
  return b.x >= 0 && b.y >= 0 && b.z >= 0 && b.x < g.tileWidth && b.y < g.size.y && b.z < g.size.z;
}

// Texel b of f; zero beyond the grid (every field's value outside: its coefficients say
// what the boundary is, so no kernel reads past it).
vec4 gridFetch(sampler2D f, Grid3 g, ivec3 b) {
  return gridInside(g, b) ? texelFetch(f, gridTexel(g, b), 0) : vec4(0.0);
}

// Packed grids: 1 for the block's cells that exist (x < nx), 0 for the padding channels.
vec4 gridCells(Grid3 g, ivec3 b) {
  return vec4(lessThan(ivec4(4 * b.x) + ivec4(0, 1, 2, 3), ivec4(g.size.x)));
}

// Packed grids: the x-1 and x+1 neighbours of the block's four cells, given the block's own
// texel `here` of f: one more fetch each, zero beyond the grid.
vec4 gridWestCells(sampler2D f, Grid3 g, ivec3 b, vec4 here) {
  return vec4(gridFetch(f, g, b - ivec3(1, 0, 0)).w, here.xyz);
}
vec4 gridEastCells(sampler2D f, Grid3 g, ivec3 b, vec4 here) {
  return vec4(here.yzw, gridFetch(f, g, b + ivec3(1, 0, 0)).x);
}

// A block, its texel, and where its slice sits in its row of tiles: a cursor steps to the
// blocks beside it with additions, where gridTexel divides (the integer divisions of every
// fetch add up in kernels that read dozens of neighbours).
struct GridCursor {
  ivec3 b;
  ivec2 texel;
  int column;  // b.z % tilesX
};

GridCursor gridCursorAt(Grid3 g, ivec2 texel) {
  GridCursor c;
  int tileX = texel.x / g.tileWidth, tileY = texel.y / g.size.y;
  c.b = ivec3(texel.x - tileX * g.tileWidth, texel.y - tileY * g.size.y, tileY * g.size.w + tileX);
  c.texel = texel;
  c.column = tileX;
  return c;
}

GridCursor gridCursorOf(Grid3 g, ivec3 b) {
  GridCursor c;
  c.b = b;
  c.column = b.z % g.size.w;
  c.texel = ivec2(c.column * g.tileWidth + b.x, (b.z / g.size.w) * g.size.y + b.y);
  return c;
}

// The cursor moved by dx, dy (any) and dz (-1, 0 or 1) blocks; where it leaves the grid
// gridInside(g, c.b) says so and its texel means nothing.
GridCursor gridStep(Grid3 g, GridCursor c, ivec3 d) {
  c.b += d;
  c.texel += d.xy;
  if (d.z > 0) {
    bool wrap = c.column == g.size.w - 1;
    c.texel += wrap ? ivec2(-(g.size.w - 1) * g.tileWidth, g.size.y) : ivec2(g.tileWidth, 0);
    c.column = wrap ? 0 : c.column + 1;
  } else if (d.z < 0) {
    bool wrap = c.column == 0;
    c.texel += wrap ? ivec2((g.size.w - 1) * g.tileWidth, -g.size.y) : ivec2(-g.tileWidth, 0);
    c.column = wrap ? g.size.w - 1 : c.column - 1;
  }
  return c;
}

// The cursor's texel of f; zero beyond the grid.
vec4 gridRead(sampler2D f, Grid3 g, GridCursor c) { return gridInside(g, c.b) ? texelFetch(f, c.texel, 0) : vec4(0.0); }
// The texel of f at the block `d` from the cursor's; zero beyond the grid.
vec4 gridReadAt(sampler2D f, Grid3 g, GridCursor c, ivec3 d) { return gridRead(f, g, gridStep(g, c, d)); }
// Packed grids: the x-1 and x+1 neighbours of the cursor's four cells, given its texel `here`.
vec4 gridWestOf(sampler2D f, Grid3 g, GridCursor c, vec4 here) {
  return vec4(gridReadAt(f, g, c, ivec3(-1, 0, 0)).w, here.xyz);
}
vec4 gridEastOf(sampler2D f, Grid3 g, GridCursor c, vec4 here) {
  return vec4(here.yzw, gridReadAt(f, g, c, ivec3(1, 0, 0)).x);
}

// Packed grids: cell coordinates of the block's four cells.
ivec3 gridCell(ivec3 b, int channel) { return ivec3(4 * b.x + channel, b.y, b.z); }

// Packed grids: the value of cell c (inside the grid).
float gridCellValue(sampler2D f, Grid3 g, ivec3 c) {
  int q = c.x / 4;
  return texelFetch(f, gridTexel(g, ivec3(q, c.y, c.z)), 0)[c.x - 4 * q];
}

// One-cell-a-texel grids: texel b clamped into [0, last] (the nearest texel beyond it).
vec4 gridFetchClamped(sampler2D f, Grid3 g, ivec3 b, ivec3 last) {
  return texelFetch(f, gridTexel(g, clamp(b, ivec3(0), last)), 0);
}

// One-cell-a-texel grids: the trilinear interpolation of f at p, in texel coordinates
// (texel b's value sits at p = b), p clamped into [0, last] (the outermost texels' values
// continue beyond them); lo and hi receive the range of the texels it blends, the clamp of
// MacCormack's limiter (Selle et al. 2008): the eight around p, but where p lies within
// kGridOnPlane of a plane of texels only those on it. Points gather on such planes where the
// velocity is zero (or zero by symmetry up to rounding): there a range that took the texels
// on one side would prefer that side, and one that switched at the plane itself would
// switch with the rounding.
const float kGridOnPlane = 1e-4;
vec4 gridInterpolate(sampler2D f, Grid3 g, vec3 p, ivec3 last, out vec4 lo, out vec4 hi) {
  vec3 q = clamp(p, vec3(0.0), vec3(last));
  ivec3 b0 = ivec3(floor(q));
  ivec3 b1 = min(b0 + 1, last);
  vec3 w = q - vec3(b0);
  ivec2 o0 = gridSliceOrigin(g, b0.z), o1 = gridSliceOrigin(g, b1.z);
  vec4 c000 = texelFetch(f, o0 + b0.xy, 0);
  vec4 c100 = texelFetch(f, o0 + ivec2(b1.x, b0.y), 0);
  vec4 c010 = texelFetch(f, o0 + ivec2(b0.x, b1.y), 0);
  vec4 c110 = texelFetch(f, o0 + b1.xy, 0);
  vec4 c001 = texelFetch(f, o1 + b0.xy, 0);
  vec4 c101 = texelFetch(f, o1 + ivec2(b1.x, b0.y), 0);
  vec4 c011 = texelFetch(f, o1 + ivec2(b0.x, b1.y), 0);
  vec4 c111 = texelFetch(f, o1 + b1.xy, 0);
  // The sides in the range: the low texel unless p is on the high plane, the high one unless
  // p is on the low plane.
  bvec3 low = lessThanEqual(w, vec3(1.0 - kGridOnPlane)), high = greaterThan(w, vec3(kGridOnPlane));
  const vec4 kHuge = vec4(3.0e38);
  lo = kHuge;
  hi = -kHuge;
  vec4 corner[8] = vec4[8](c000, c100, c010, c110, c001, c101, c011, c111);
  for (int k = 0; k < 8; ++k) {
    bvec3 side = bvec3((k & 1) != 0, (k & 2) != 0, (k & 4) != 0);
    bvec3 taken = bvec3(side.x ? high.x : low.x, side.y ? high.y : low.y, side.z ? high.z : low.z);
    if (all(taken)) {
      lo = min(lo, corner[k]);
      hi = max(hi, corner[k]);
    }
  }
  vec4 y0 = mix(mix(c000, c100, w.x), mix(c010, c110, w.x), w.y);
  vec4 y1 = mix(mix(c001, c101, w.x), mix(c011, c111, w.x), w.y);
  return mix(y0, y1, w.z);
}
vec4 gridInterpolate(sampler2D f, Grid3 g, vec3 p, ivec3 last) {
  vec4 lo, hi;
  return gridInterpolate(f, g, p, last, lo, hi);
}

#ifdef TEXSTREAM_COMPUTE
// Channel `channel` of the 2x2 texels from `corner` in one gather (GLSL 4.00, ES 3.10: every
// context with compute shaders), ordered (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1). A
// gather fetches what one RGBA32F texelFetch does, so a single channel's trilinear
// interpolation takes two fetches rather than eight (texel fetches bound the advection).
vec4 gridGather(sampler2D f, ivec2 corner, int channel) {
  vec2 at = vec2(corner + 1) / vec2(textureSize(f, 0));
  vec4 v;
  if (channel == 0) v = textureGather(f, at, 0);
  else if (channel == 1) v = textureGather(f, at, 1);
  else if (channel == 2) v = textureGather(f, at, 2);
  else v = textureGather(f, at, 3);
  return v.wzxy;
}
#endif

// Channel `channel` of gridInterpolate (the same value, lo and hi). On the compute backend
// the texels come by gridGather; where the high texel is clamped onto the low one (p on the
// grid's last plane) the gather takes the texel beyond it instead, whose weight is then 0
// and which the range leaves out.
float gridInterpolateChannel(sampler2D f, Grid3 g, vec3 p, ivec3 last, int channel, out float lo, out float hi) {
  vec3 q = clamp(p, vec3(0.0), vec3(last));
  ivec3 b0 = ivec3(floor(q));
  ivec3 b1 = min(b0 + 1, last);
  vec3 w = q - vec3(b0);
  ivec2 o0 = gridSliceOrigin(g, b0.z), o1 = gridSliceOrigin(g, b1.z);
#ifdef TEXSTREAM_COMPUTE
  vec4 s0 = gridGather(f, o0 + b0.xy, channel), s1 = gridGather(f, o1 + b0.xy, channel);
#else
  vec4 s0 = vec4(texelFetch(f, o0 + b0.xy, 0)[channel], texelFetch(f, o0 + ivec2(b1.x, b0.y), 0)[channel],
                 texelFetch(f, o0 + ivec2(b0.x, b1.y), 0)[channel], texelFetch(f, o0 + b1.xy, 0)[channel]);
  vec4 s1 = vec4(texelFetch(f, o1 + b0.xy, 0)[channel], texelFetch(f, o1 + ivec2(b1.x, b0.y), 0)[channel],
                 texelFetch(f, o1 + ivec2(b0.x, b1.y), 0)[channel], texelFetch(f, o1 + b1.xy, 0)[channel]);
#endif
  bvec3 low = lessThanEqual(w, vec3(1.0 - kGridOnPlane)), high = greaterThan(w, vec3(kGridOnPlane));
  lo = 3.0e38;
  hi = -3.0e38;
  float corner[8] = float[8](s0.x, s0.y, s0.z, s0.w, s1.x, s1.y, s1.z, s1.w);
  for (int k = 0; k < 8; ++k) {
    bvec3 side = bvec3((k & 1) != 0, (k & 2) != 0, (k & 4) != 0);
    bvec3 taken = bvec3(side.x ? high.x : low.x, side.y ? high.y : low.y, side.z ? high.z : low.z);
    if (all(taken)) {
      lo = min(lo, corner[k]);
      hi = max(hi, corner[k]);
    }
  }
  float y0 = mix(mix(s0.x, s0.y, w.x), mix(s0.z, s0.w, w.x), w.y);
  float y1 = mix(mix(s1.x, s1.y, w.x), mix(s1.z, s1.w, w.x), w.y);
  return mix(y0, y1, w.z);
}

#endif
