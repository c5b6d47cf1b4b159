// The vector update of Chronopoulos-Gear CG (Chronopoulos & Gear 1989; the compute
// backend's CG, src/solvers/ConjugateGradient.cpp), one texel:
//   p = u + beta p,  s = w + beta s   (s = A p without a second product)
//   x += alpha p,    r -= alpha s
//   JACOBI: u = r .* diag(A)^-1 as well (u = M^-1 r; without a preconditioner u is r).
// FIRST: the first iteration, p = u and s = w (p and s hold garbage before it).
// alpha = 0 (a breakdown recorded in the status) leaves x and r as they were, even if p or
// s hold NaN, so a failed solve still returns a finite x. Pointwise: safe in place.
// Outputs: o_out0 = p, o_out1 = s, o_out2 = x, o_out3 = r, JACOBI: o_out4 = u.
uniform sampler2D u_u;
uniform sampler2D u_w;
uniform sampler2D u_p;
uniform sampler2D u_s;
uniform sampler2D u_x;
uniform sampler2D u_r;
uniform Coefficient u_alpha;
uniform Coefficient u_beta;
#ifdef JACOBI
uniform sampler2D u_inverseDiagonal;
#endif

void kernel(ivec2 texel) {
  float alpha = COEFFICIENT(u_alpha);
  vec4 u = texelFetch(u_u, texel, 0), w = texelFetch(u_w, texel, 0);
#ifdef FIRST
  vec4 p = u, s = w;
#else
  float beta = COEFFICIENT(u_beta);
  vec4 p = u + beta * texelFetch(u_p, texel, 0);
  vec4 s = w + beta * texelFetch(u_s, texel, 0);
#endif
  vec4 x = texelFetch(u_x, texel, 0), r = texelFetch(u_r, texel, 0);
  if (alpha != 0.0) {
    x += alpha * p;
    r -= alpha * s;
  }
  o_out0 = p;
  o_out1 = s;
  o_out2 = x;
  o_out3 = r;
#ifdef JACOBI
  o_out4 = r * texelFetch(u_inverseDiagonal, texel, 0);
#endif
}
