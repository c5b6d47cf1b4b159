// gradient_subtract.glsl fused with the un-layering of the velocity that follows it
// (unlayer_velocity.glsl), compute backend: one invocation a layered texel writes its u and
// v (u_image0, u_image1, as gradient_subtract.glsl) and, for every channel that owns its
// node (i, j), node texel (i, j) of the node field u_image2 = (u, v, 0, 0), what the
// un-layering reads from that owner: one pass instead of two.
layout(local_size_x = 16, local_size_y = 16) in;
#include "fluid/gradient_texel.glsl"

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(u_image0);
  if (t.x >= size.x || t.y >= size.y) return;
  vec4 u, v;
  projectedTexel(t, u, v);
  imageStore(u_image0, t, u);
  imageStore(u_image1, t, v);
  bvec4 owned = layeredOwned(u_grid, t);
  ivec4 i = layeredNodeX(u_grid, t.x), j = layeredNodeY(u_grid, t.y);
  if (owned.x) imageStore(u_image2, ivec2(i.x, j.x), vec4(u.x, v.x, 0.0, 0.0));
  if (owned.y) imageStore(u_image2, ivec2(i.y, j.y), vec4(u.y, v.y, 0.0, 0.0));
  if (owned.z) imageStore(u_image2, ivec2(i.z, j.z), vec4(u.z, v.z, 0.0, 0.0));
  if (owned.w) imageStore(u_image2, ivec2(i.w, j.w), vec4(u.w, v.w, 0.0, 0.0));
}
