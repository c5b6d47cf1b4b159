// The kernel() of a layered kernel that defines `vec4 value(ivec2 t)`: the four nodes of an
// interior texel t, valid in the channels that own their node. Owned channels get value(t);
// others zero, or, with BORDER_IN_KERNEL, border duplicates get the value computed at their
// owner's texel and channel: the one-texel border comes out in sync, bit for bit what a
// border copy (sync_border) would write, without the copy pass.
void kernel(ivec2 t) {
  bvec4 owned = layeredOwned(u_grid, t);
  vec4 v = any(owned) ? value(t) : vec4(0.0);
  v = mix(vec4(0.0), v, owned);
#ifdef BORDER_IN_KERNEL
  bvec4 halo = layeredHalo(u_grid, t);
  if (any(notEqual(halo, owned))) {
    ivec4 i = layeredNodeX(u_grid, t.x), j = layeredNodeY(u_grid, t.y);
    for (int c = 0; c < 4; ++c) {
      if (halo[c] && !owned[c]) {
        ivec3 s = layeredSlot(u_grid, ivec2(i[c], j[c]));
        v[c] = value(s.xy)[s.z];
      }
    }
  }
#endif
  o_out0 = v;
}
