// One weighted Jacobi sweep (Bolz et al. 2003, §4.2 smooths with weighted Jacobi):
//   x' = x + omega D^-1 (b - A x),
// with A x computed beforehand by the matrix's own pass (u_ax). D^-1 comes either as the
// inverse diagonal (INVERSE_DIAGONAL: zero padding, a product) or as the diagonal itself
// (a division; keepValid zeroes the 0/0 of the padding). Output: o_out0 = x'.
// FROM_ZERO: the first sweep from x = 0, x' = omega D^-1 b (no x, no A x; INVERSE_DIAGONAL).
// INCREMENT: the sweep's step alone, omega D^-1 (b - A x) (no x; INVERSE_DIAGONAL).
#if !defined(FROM_ZERO) && !defined(INCREMENT)
uniform sampler2D u_x;
#endif
#ifndef FROM_ZERO
uniform sampler2D u_ax;
#endif
uniform sampler2D u_b;
uniform sampler2D u_diagonal;  // diag(A), or 1 / diag(A) with INVERSE_DIAGONAL
uniform float u_omega;
uniform int u_n;  // elements, for keepValid

void kernel(ivec2 texel) {
#ifdef FROM_ZERO
  o_out0 = u_omega * (texelFetch(u_b, texel, 0) * texelFetch(u_diagonal, texel, 0));
#elif defined(INCREMENT)
  o_out0 = u_omega * ((texelFetch(u_b, texel, 0) - texelFetch(u_ax, texel, 0)) * texelFetch(u_diagonal, texel, 0));
#else
  vec4 x = texelFetch(u_x, texel, 0);
  vec4 r = texelFetch(u_b, texel, 0) - texelFetch(u_ax, texel, 0);
  vec4 d = texelFetch(u_diagonal, texel, 0);
#ifdef INVERSE_DIAGONAL
  o_out0 = x + u_omega * (r * d);
#else
  o_out0 = x + keepValid(u_omega * (r / d), texelIndex(texel, textureSize(u_x, 0).x), u_n);
#endif
#endif
}
