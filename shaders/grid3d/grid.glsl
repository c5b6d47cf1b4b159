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

// Block b -> texel of the flat texture (b inside the grid).
ivec2 gridTexel(Grid3 g, ivec3 b) {
  return ivec2((b.z % g.size.w) * g.tileWidth + b.x, (b.z / g.size.w) * g.size.y + b.y);
}

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
// continue beyond them); lo and hi receive the range of the eight texels it blends, the
// clamp of MacCormack's limiter (Selle et al. 2008).
vec4 gridInterpolate(sampler2D f, Grid3 g, vec3 p, ivec3 last, out vec4 lo, out vec4 hi) {
  vec3 q = clamp(p, vec3(0.0), vec3(last));
  ivec3 b0 = ivec3(floor(q));
  ivec3 b1 = min(b0 + 1, last);
  vec3 w = q - vec3(b0);
  vec4 c000 = texelFetch(f, gridTexel(g, b0), 0);
  vec4 c100 = texelFetch(f, gridTexel(g, ivec3(b1.x, b0.y, b0.z)), 0);
  vec4 c010 = texelFetch(f, gridTexel(g, ivec3(b0.x, b1.y, b0.z)), 0);
  vec4 c110 = texelFetch(f, gridTexel(g, ivec3(b1.x, b1.y, b0.z)), 0);
  vec4 c001 = texelFetch(f, gridTexel(g, ivec3(b0.x, b0.y, b1.z)), 0);
  vec4 c101 = texelFetch(f, gridTexel(g, ivec3(b1.x, b0.y, b1.z)), 0);
  vec4 c011 = texelFetch(f, gridTexel(g, ivec3(b0.x, b1.y, b1.z)), 0);
  vec4 c111 = texelFetch(f, gridTexel(g, b1), 0);
  lo = min(min(min(c000, c100), min(c010, c110)), min(min(c001, c101), min(c011, c111)));
  hi = max(max(max(c000, c100), max(c010, c110)), max(max(c001, c101), max(c011, c111)));
  vec4 y0 = mix(mix(c000, c100, w.x), mix(c010, c110, w.x), w.y);
  vec4 y1 = mix(mix(c001, c101, w.x), mix(c011, c111, w.x), w.y);
  return mix(y0, y1, w.z);
}
vec4 gridInterpolate(sampler2D f, Grid3 g, vec3 p, ivec3 last) {
  vec4 lo, hi;
  return gridInterpolate(f, g, p, last, lo, hi);
}

#endif
