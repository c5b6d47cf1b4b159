// Border copies (Bolz §4.2: "duplicates ... must be kept in sync ... performed on the GPU
// with a set of programs that copy the appropriate data into the texture border"), in
// place, for FIELDS fields at once, over the border strips (columns 0 and sx + 1 .. W - 1,
// rows 0 and sy + 1 .. H - 1). Per channel a strip texel keeps an owned value, copies the
// value of a node another part owns (border duplicate), or is zero past the grid. Copies
// read owned channels only (of columns 1 and sx, rows 1 and sy, or the texel itself).
// The fragment backend runs the x strips and the y strips (columns 1 .. sx) as two passes,
// so no texel a pass writes is read by another invocation (LayeredGrid::syncBorder).
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_f0;
uniform sampler2D u_f1;
uniform sampler2D u_f2;
uniform sampler2D u_f3;

vec4 syncedTexel(sampler2D f, ivec2 t) {
  vec4 own = texelFetch(f, t, 0);
  bvec4 owned = layeredOwned(u_grid, t), halo = layeredHalo(u_grid, t);
  ivec4 i = layeredNodeX(u_grid, t.x), j = layeredNodeY(u_grid, t.y);
  vec4 v = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    if (owned[c]) v[c] = own[c];
    else if (halo[c]) v[c] = layeredValue(f, u_grid, ivec2(i[c], j[c]));
  }
  return v;
}

void kernel(ivec2 t) {
  o_out0 = syncedTexel(u_f0, t);
#if FIELDS > 1
  o_out1 = syncedTexel(u_f1, t);
#endif
#if FIELDS > 2
  o_out2 = syncedTexel(u_f2, t);
#endif
#if FIELDS > 3
  o_out3 = syncedTexel(u_f3, t);
#endif
}
