// The fused CG update (Bolz et al. 2003, §3.1; ARCHITECTURE.md "Data flow of a CG
// iteration"): x += alpha p and r -= alpha q in one pass with two outputs, and with
// JACOBI also z = r .* diag(A)^-1 as a third, so PCG-Jacobi reads r once.
// alpha = 0 (a recorded breakdown) leaves x and r exactly as they were, even if p or q
// hold NaN, so a failed solve still returns a finite x.
// Outputs: o_out0 = x', o_out1 = r'  [, o_out2 = z']. Padding stays zero: all inputs have
// zero padding and 0 * anything finite is 0.
uniform sampler2D u_x;
uniform sampler2D u_p;
uniform sampler2D u_r;
uniform sampler2D u_q;
uniform Coefficient u_alpha;
#ifdef JACOBI
uniform sampler2D u_inverseDiagonal;
#endif

void kernel(ivec2 texel) {
  float alpha = COEFFICIENT(u_alpha);
  vec4 x = texelFetch(u_x, texel, 0);
  vec4 r = texelFetch(u_r, texel, 0);
  if (alpha != 0.0) {
    x += alpha * texelFetch(u_p, texel, 0);
    r -= alpha * texelFetch(u_q, texel, 0);
  }
  o_out0 = x;
  o_out1 = r;
#ifdef JACOBI
  o_out2 = r * texelFetch(u_inverseDiagonal, texel, 0);
#endif
}
