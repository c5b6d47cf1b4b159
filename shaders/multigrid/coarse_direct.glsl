// The coarsest-level solve (Bolz §4.2, "Solve(A_h, v_h, b_h)") done exactly: x = M b with M
// the inverse of the coarsest operator (fixed nodes as identity rows; for singular
// problems the pseudo-inverse onto zero-mean vectors), computed on the CPU when the
// hierarchy is built and stored row by row, node k's row in texture row k (4 columns a
// texel). Every owned channel of texel t takes the dot product of its node's row with b.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_b;
uniform sampler2D u_inverse;

vec4 value(ivec2 t) {
  ivec4 i = layeredNodeX(u_grid, t.x), j = layeredNodeY(u_grid, t.y);
  // The row of each channel's node (clamped for channels that own none: masked by the caller).
  int n = u_grid.x * u_grid.y;
  ivec4 row = clamp(i + u_grid.x * j, ivec4(0), ivec4(n - 1));
  vec4 x = vec4(0.0);
  for (int m = 0; m < n; ++m) {
    float b = layeredValue(u_b, u_grid, ivec2(m - u_grid.x * (m / u_grid.x), m / u_grid.x));
    int column = m / 4, lane = m - 4 * column;
    x += b * vec4(texelFetch(u_inverse, ivec2(column, row.x), 0)[lane], texelFetch(u_inverse, ivec2(column, row.y), 0)[lane],
                  texelFetch(u_inverse, ivec2(column, row.z), 0)[lane], texelFetch(u_inverse, ivec2(column, row.w), 0)[lane]);
  }
  return x;
}

#include "multigrid/border_kernel.glsl"
