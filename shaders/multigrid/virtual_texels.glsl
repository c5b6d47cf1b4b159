// Virtual texels of a layered grid (layered.glsl, which must come first): texel v of any
// position, also outside the texture, stands for the node of each channel c that texel v
// would hold in c's part extended past its one-texel border (node (v.x - 1 + qx sx,
// v.y - 1 + qy sy)), so that a node's neighbours are the same channel of the neighbouring
// virtual texels everywhere, also two or more texels past a split. Texels that own all four
// channels hold their own nodes; any other virtual texel gathers each channel from its
// node's owner, and nodes outside the grid are zeros. The tiled sweeps' addressing
// (sweep_tile.glsl).
#ifndef TEXSTREAM_MULTIGRID_VIRTUAL_TEXELS_GLSL
#define TEXSTREAM_MULTIGRID_VIRTUAL_TEXELS_GLSL

// Channel c of a texel without dynamic indexing (which can move arrays to local memory).
float channelOf(vec4 t, int c) { return c == 0 ? t.x : (c == 1 ? t.y : (c == 2 ? t.z : t.w)); }

// Where the four nodes of a virtual texel (one a channel) live: their owners' texels and
// channels, computed once for all the fields a texel gathers, and which nodes lie inside
// the grid.
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
// The slots of virtual texel v's own nodes.
Slots slotsOfTexel(ivec4 g, ivec2 v) { return slotsOf(g, layeredNodeX(g, v.x), layeredNodeY(g, v.y)); }

// One channel of field f at one node: channel c of its owner's texel t; zero outside the
// grid, where nothing is fetched.
float nodeValue(sampler2D f, ivec2 t, int c, bool inside) { return inside ? channelOf(texelFetch(f, t, 0), c) : 0.0; }

// Field f at the four nodes of a virtual texel (zero outside the grid).
vec4 gathered(sampler2D f, Slots s) {
  return vec4(nodeValue(f, s.t0, s.channel.x, s.inside.x), nodeValue(f, s.t1, s.channel.y, s.inside.y),
              nodeValue(f, s.t2, s.channel.z, s.inside.z), nodeValue(f, s.t3, s.channel.w, s.inside.w));
}

#endif
