// Bilinear interpolation S and correction (Bolz §4.2, "Interpolation"):
//   x_h[t] += 1/4 sum over d in {0, 1}^2 of v_2h[floor((t - 1 + d) / 2) + 1]
// (fine texel t, node-local index t - 1; coarse node L sits at fine local 2L), the same in
// all four channels. v_2h must be border-synchronised. Only free owned fine nodes change;
// fixed ones keep their value; border texels follow by copy or BORDER_IN_KERNEL.
// NO_CORRECT: x_h = S v_2h at free nodes (full multigrid's first guess); fixed nodes keep x.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;
uniform sampler2D u_v;
uniform sampler2D u_centre;

vec4 value(ivec2 t) {
  ivec2 l = t - 1;
  ivec2 c0 = l / 2 + 1, c1 = (l + 1) / 2 + 1;
  vec4 s = 0.25 * (texelFetch(u_v, c0, 0) + texelFetch(u_v, ivec2(c1.x, c0.y), 0) +
                   texelFetch(u_v, ivec2(c0.x, c1.y), 0) + texelFetch(u_v, c1, 0));
  bvec4 free = notEqual(texelFetch(u_centre, t, 0), vec4(0.0));
  vec4 x = texelFetch(u_x, t, 0);
#ifdef NO_CORRECT
  return mix(x, s, free);
#else
  return mix(x, x + s, free);
#endif
}

#include "multigrid/border_kernel.glsl"
