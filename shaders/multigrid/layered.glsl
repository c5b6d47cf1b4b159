// The layered layout of Bolz et al. 2003, §4.2 (src/solvers/multigrid/LayeredGrid.h). A grid is an
// ivec4 g = (nx, ny, sx, sy). Channel c = qx + 2 qy holds part (qx, qy); texel t holds, in
// channel c, node (t.x - 1 + qx sx, t.y - 1 + qy sy). Part 0 along an axis owns nodes
// [0, s), part 1 owns [s, n); each keeps a one-texel border.

// Channels that own their node at texel t.
bvec4 layeredOwned(ivec4 g, ivec2 t) {
  int a = t.x - 1, b = t.y - 1;
  bool x0 = a >= 0 && a < g.z, x1 = a >= 0 && a < g.x - g.z;
  bool y0 = b >= 0 && b < g.w, y1 = b >= 0 && b < g.y - g.w;
  return bvec4(x0 && y0, x1 && y0, x0 && y1, x1 && y1);
}

// Channels whose node lies in the grid and within the one-texel border of their part
// (owned, or a duplicate another part owns): what a synchronised field holds non-zero.
bvec4 layeredHalo(ivec4 g, ivec2 t) {
  int a = t.x - 1, b = t.y - 1;
  bool x0 = a >= 0 && a <= g.z && a < g.x, x1 = a >= -1 && a < g.x - g.z;
  bool y0 = b >= 0 && b <= g.w && b < g.y, y1 = b >= -1 && b < g.y - g.w;
  return bvec4(x0 && y0, x1 && y0, x0 && y1, x1 && y1);
}

// Node x and y index of each channel at texel t.
ivec4 layeredNodeX(ivec4 g, int tx) { return ivec4(tx - 1) + ivec4(0, g.z, 0, g.z); }
ivec4 layeredNodeY(ivec4 g, int ty) { return ivec4(ty - 1) + ivec4(0, 0, g.w, g.w); }

// Texel (xy) and channel (z) that own node n (inside the grid).
ivec3 layeredSlot(ivec4 g, ivec2 n) {
  int qx = n.x >= g.z ? 1 : 0, qy = n.y >= g.w ? 1 : 0;
  return ivec3(n.x - qx * g.z + 1, n.y - qy * g.w + 1, qx + 2 * qy);
}

// Value of node n of a layered field (its owner's texel and channel).
float layeredValue(sampler2D f, ivec4 g, ivec2 n) {
  ivec3 s = layeredSlot(g, n);
  return texelFetch(f, s.xy, 0)[s.z];
}

// True for texels of the outer ring, which hold only border values.
bool layeredRing(ivec2 t, ivec2 size) {
  return t.x == 0 || t.y == 0 || t.x == size.x - 1 || t.y == size.y - 1;
}

// texelFetch that reads zero outside the texture (coarse-to-fine reach of 2T - 1 + e).
vec4 fetchOrZero(sampler2D f, ivec2 t) {
  ivec2 size = textureSize(f, 0);
  if (t.x < 0 || t.y < 0 || t.x >= size.x || t.y >= size.y) return vec4(0.0);
  return texelFetch(f, t, 0);
}

// Element e of a vector in the stream layout (texel e / 4, channel e % 4).
float fetchElement(sampler2D x, int e) { return fetchTexel(x, e / 4)[e - 4 * (e / 4)]; }
