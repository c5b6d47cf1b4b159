// The product of one output texel of a BandedMatrix (linalg/spmv_banded.glsl says how the
// diagonals are stored), shared by the plain pass and the compute kernel that fuses a dot
// product into it (linalg/spmv_banded_dot.glsl).
#ifndef TEXSTREAM_LINALG_SPMV_BANDED_PRODUCT_GLSL
#define TEXSTREAM_LINALG_SPMV_BANDED_PRODUCT_GLSL

uniform sampler2DArray u_diagonals;
uniform sampler2D u_x;
uniform int u_offsets[DIAGONALS];
uniform int u_width;  // y's layout width in texels

vec4 bandedProduct(ivec2 texel) {
  int e = 4 * texelIndex(texel, u_width);
  vec4 sum = vec4(0.0);
  for (int k = 0; k < DIAGONALS; ++k) {
    sum += texelFetch(u_diagonals, ivec3(texel, k), 0) * fetchElements(u_x, e + u_offsets[k]);
  }
  return sum;
}

#endif
