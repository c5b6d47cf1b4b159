// y = A x for A stored as DIAGONALS diagonals (Krüger & Westermann §44.2.2, fig. 44-3):
// layer k of u_diagonals holds A(i, i + u_offsets[k]) at element i, in y's layout, so
// output texel t adds diag_k[4t..4t+3] * x[4t + off_k .. 4t + off_k + 3]. Entries whose
// column leaves [0, n) are stored as zero, and fetchElements reads 0 outside x, so
// nothing wraps; the diagonals' zero padding keeps y's padding zero.
uniform sampler2DArray u_diagonals;
uniform sampler2D u_x;
uniform int u_offsets[DIAGONALS];
uniform int u_width;  // y's layout width in texels

void kernel(ivec2 texel) {
  int e = 4 * texelIndex(texel, u_width);
  vec4 sum = vec4(0.0);
  for (int k = 0; k < DIAGONALS; ++k) {
    sum += texelFetch(u_diagonals, ivec3(texel, k), 0) * fetchElements(u_x, e + u_offsets[k]);
  }
  o_out0 = sum;
}
