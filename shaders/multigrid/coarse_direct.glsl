// The coarsest-level solve (Bolz §4.2, "Solve(A_h, v_h, b_h)") done exactly: x = M b with M
// the inverse of the coarsest operator (fixed nodes as identity rows; for singular
// problems the pseudo-inverse onto zero-mean vectors), computed on the CPU when the
// hierarchy is built. Row k of M sits in texture row k, in the layered order of b: texel
// (q, k), channel c holds M[k][node of channel c at b's texel q] where that channel owns
// its node, else 0 (Multigrid::buildCoarseInverse). So x_k is a sum over b's texels of
// dot(b texel, M texel): independent fetches the compiler can overlap, no channel picked
// by a run-time index.
//
// Every channel in the layered halo (owned nodes and, with BORDER_IN_KERNEL, border
// duplicates, which are the same node and so the same row) takes its node's value; the
// others are zero. This kernel writes the border itself, so it does not use
// border_kernel.glsl.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_b;
uniform sampler2D u_inverse;

void kernel(ivec2 t) {
#ifdef BORDER_IN_KERNEL
  bvec4 valid = layeredHalo(u_grid, t);
#else
  bvec4 valid = layeredOwned(u_grid, t);
#endif
  if (!any(valid)) {
    o_out0 = vec4(0.0);
    return;
  }
  ivec4 i = layeredNodeX(u_grid, t.x), j = layeredNodeY(u_grid, t.y);
  int n = u_grid.x * u_grid.y;
  // Channels outside the halo read row 0 and are zeroed below.
  ivec4 row = clamp(i + u_grid.x * j, ivec4(0), ivec4(n - 1));
  ivec2 size = textureSize(u_b, 0);
  vec4 x = vec4(0.0);
  // Four texels a step, all twenty fetches issued before the sums: a loop of one texel a
  // step waits out a fetch latency per texel.
  int q = 0;
  for (; q + 4 <= COARSE_TEXELS; q += 4) {
    vec4 b0 = texelFetch(u_b, ivec2(q % size.x, q / size.x), 0);
    vec4 b1 = texelFetch(u_b, ivec2((q + 1) % size.x, (q + 1) / size.x), 0);
    vec4 b2 = texelFetch(u_b, ivec2((q + 2) % size.x, (q + 2) / size.x), 0);
    vec4 b3 = texelFetch(u_b, ivec2((q + 3) % size.x, (q + 3) / size.x), 0);
    mat4 mx = mat4(texelFetch(u_inverse, ivec2(q, row.x), 0), texelFetch(u_inverse, ivec2(q + 1, row.x), 0),
                   texelFetch(u_inverse, ivec2(q + 2, row.x), 0), texelFetch(u_inverse, ivec2(q + 3, row.x), 0));
    mat4 my = mat4(texelFetch(u_inverse, ivec2(q, row.y), 0), texelFetch(u_inverse, ivec2(q + 1, row.y), 0),
                   texelFetch(u_inverse, ivec2(q + 2, row.y), 0), texelFetch(u_inverse, ivec2(q + 3, row.y), 0));
    mat4 mz = mat4(texelFetch(u_inverse, ivec2(q, row.z), 0), texelFetch(u_inverse, ivec2(q + 1, row.z), 0),
                   texelFetch(u_inverse, ivec2(q + 2, row.z), 0), texelFetch(u_inverse, ivec2(q + 3, row.z), 0));
    mat4 mw = mat4(texelFetch(u_inverse, ivec2(q, row.w), 0), texelFetch(u_inverse, ivec2(q + 1, row.w), 0),
                   texelFetch(u_inverse, ivec2(q + 2, row.w), 0), texelFetch(u_inverse, ivec2(q + 3, row.w), 0));
    x += vec4(dot(mx[0], b0) + dot(mx[1], b1) + dot(mx[2], b2) + dot(mx[3], b3),
              dot(my[0], b0) + dot(my[1], b1) + dot(my[2], b2) + dot(my[3], b3),
              dot(mz[0], b0) + dot(mz[1], b1) + dot(mz[2], b2) + dot(mz[3], b3),
              dot(mw[0], b0) + dot(mw[1], b1) + dot(mw[2], b2) + dot(mw[3], b3));
  }
  for (; q < COARSE_TEXELS; ++q) {
    vec4 b = texelFetch(u_b, ivec2(q % size.x, q / size.x), 0);
    x += vec4(dot(texelFetch(u_inverse, ivec2(q, row.x), 0), b), dot(texelFetch(u_inverse, ivec2(q, row.y), 0), b),
              dot(texelFetch(u_inverse, ivec2(q, row.z), 0), b), dot(texelFetch(u_inverse, ivec2(q, row.w), 0), b));
  }
  o_out0 = mix(vec4(0.0), x, valid);
}
