// o = a x (+ b y with WITH_Y): copy (a = 1), scale, axpy, xpay, axpby and the general
// z = a x + b y of linalg/VectorOps.h in one kernel (Krüger & Westermann §44.3.1).
// keepValid keeps the padding zero even when a coefficient is Inf or NaN (0 * Inf).
uniform sampler2D u_x;
uniform Coefficient u_a;
#ifdef WITH_Y
uniform sampler2D u_y;
uniform Coefficient u_b;
#endif
uniform int u_n;      // elements of the vectors
uniform int u_width;  // layout width in texels

void kernel(ivec2 texel) {
  vec4 v = COEFFICIENT(u_a) * texelFetch(u_x, texel, 0);
#ifdef WITH_Y
  v += COEFFICIENT(u_b) * texelFetch(u_y, texel, 0);
#endif
  o_out0 = keepValid(v, texelIndex(texel, u_width), u_n);
}
