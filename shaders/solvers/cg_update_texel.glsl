// The CG update of one texel for cg_update.glsl (the fragment backend's classic loop; one
// pass, two or three outputs):
// x += alpha p and r -= alpha q, and with JACOBI also z = r .* diag(A)^-1, so PCG-Jacobi
// reads r once (Bolz et al. 2003, §3.1; ARCHITECTURE.md "Data flow of a CG iteration").
// alpha = 0 (a recorded breakdown) leaves x and r exactly as they were, even if p or q
// hold NaN, so a failed solve still returns a finite x. Padding stays zero: all inputs
// have zero padding and 0 * anything finite is 0.
uniform sampler2D u_x;
uniform sampler2D u_p;
uniform sampler2D u_r;
uniform sampler2D u_q;
uniform Coefficient u_alpha;
#ifdef JACOBI
uniform sampler2D u_inverseDiagonal;
#endif

void cgUpdateTexel(ivec2 texel, out vec4 x, out vec4 r, out vec4 z) {
  float alpha = COEFFICIENT(u_alpha);
  x = texelFetch(u_x, texel, 0);
  r = texelFetch(u_r, texel, 0);
  if (alpha != 0.0) {
    x += alpha * texelFetch(u_p, texel, 0);
    r -= alpha * texelFetch(u_q, texel, 0);
  }
#ifdef JACOBI
  z = r * texelFetch(u_inverseDiagonal, texel, 0);
#else
  z = r;
#endif
}
