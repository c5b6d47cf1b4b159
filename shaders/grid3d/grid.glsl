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

#endif
