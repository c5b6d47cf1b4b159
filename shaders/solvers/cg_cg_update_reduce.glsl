// Chronopoulos-Gear CG's vector update fused with the reductions that need no product
// (compute backend, one dispatch, reduce/workgroup.glsl with REDUCE_VEC4), per texel:
//   p = u + beta p,  s = w + beta s   (s = A p without a second product)
//   x += alpha p,    r -= alpha s,    JACOBI: u = r .* diag(A)^-1 (u = M^-1 r; without a
//   preconditioner u is r)
// and gamma' = r.u, r.r summed; the last invocation stores them. delta = w.u follows the
// product w = A u (solvers/cg_cg_alpha_beta.glsl). In place: every texel is read and
// written by one invocation only.
// FIRST: the first iteration (or a restart), p = u and s = w (p and s hold garbage before).
// NO_UPDATE: only the sums, at the start of a solve or a restart.
// alpha = 0 (a recorded breakdown) leaves x and r as they were, even if p or s hold NaN.
// Outputs: u_image0..3 = p, s, x, r, [JACOBI: u_image4 = u], then gamma', r.r
// (NO_UPDATE: u_image0 = gamma', u_image1 = r.r). PARTIALS_ONLY: not gamma' and r.r; the
// workgroups' partial sums stay in the scratch buffer for the product that follows
// (reduce/folded_sums.glsl).
// WRITE_ELEMENTS: u also goes to a shader-storage buffer in element order (binding 3,
// stream/ElementCopy.h), from which the next product gathers it.
#define REDUCE_VEC4 1
#include "reduce/workgroup.glsl"

#ifdef WRITE_ELEMENTS
layout(std430, binding = 3) writeonly buffer UElements { vec4 w_uElements[]; };
#endif

uniform sampler2D u_r;
#ifndef UNPRECONDITIONED
uniform sampler2D u_u;
#endif
#ifndef NO_UPDATE
uniform sampler2D u_w;
uniform sampler2D u_p;
uniform sampler2D u_s;
uniform sampler2D u_x;
uniform Coefficient u_alpha;
uniform Coefficient u_beta;
#ifdef JACOBI
uniform sampler2D u_inverseDiagonal;
#endif
#endif

#ifdef NO_UPDATE
#define GAMMA_IMAGE u_image0
#define RR_IMAGE u_image1
#elif defined(JACOBI)
#define GAMMA_IMAGE u_image5
#define RR_IMAGE u_image6
#else
#define GAMMA_IMAGE u_image4
#define RR_IMAGE u_image5
#endif

vec4 element(ivec2 texel) {
  vec4 r = texelFetch(u_r, texel, 0);
#ifdef UNPRECONDITIONED
  vec4 u = r;
#else
  vec4 u = texelFetch(u_u, texel, 0);
#endif
#ifndef NO_UPDATE
  float alpha = COEFFICIENT(u_alpha);
  vec4 w = texelFetch(u_w, texel, 0);
#ifdef FIRST
  vec4 p = u, s = w;
#else
  float beta = COEFFICIENT(u_beta);
  vec4 p = u + beta * texelFetch(u_p, texel, 0);
  vec4 s = w + beta * texelFetch(u_s, texel, 0);
#endif
  vec4 x = texelFetch(u_x, texel, 0);
  if (alpha != 0.0) {
    x += alpha * p;
    r -= alpha * s;
  }
  imageStore(u_image0, texel, p);
  imageStore(u_image1, texel, s);
  imageStore(u_image2, texel, x);
  imageStore(u_image3, texel, r);
#ifdef JACOBI
  u = r * texelFetch(u_inverseDiagonal, texel, 0);
  imageStore(u_image4, texel, u);
#elif defined(UNPRECONDITIONED)
  u = r;
#endif
#ifdef WRITE_ELEMENTS
  w_uElements[texel.y * u_size.x + texel.x] = u;
#endif
#endif
  return vec4(dot(r, u), dot(r, r), 0.0, 0.0);
}

#ifndef PARTIALS_ONLY
void epilogue4(vec4 sums) {
  imageStore(GAMMA_IMAGE, ivec2(0), vec4(sums.x, 0.0, 0.0, 0.0));
  imageStore(RR_IMAGE, ivec2(0), vec4(sums.y, 0.0, 0.0, 0.0));
}
#endif
