// Chronopoulos-Gear CG's one reduction per iteration (compute backend, one dispatch,
// reduce/workgroup.glsl with REDUCE_VEC4): gamma' = r.u, delta = w.u (w = A u) and r.r
// together, then in the last invocation
//   beta'  = gamma' / gamma                                  (cgBeta)
//   alpha' = gamma' / (delta - beta' gamma' / alpha)         (cgAlpha: breakdowns recorded)
// where delta - beta' gamma' / alpha equals p'^T A p' of standard CG (Chronopoulos & Gear
// 1989, eq. 2.9). FIRST: alpha' = gamma' / delta, beta' = 0.
// Outputs: u_image0 = gamma' (rho), u_image1 = alpha', u_image2 = beta', u_image3 = r.r,
// u_image4 = status. UNPRECONDITIONED: u is r itself (not bound).
#define REDUCE_VEC4 1
#include "reduce/workgroup.glsl"
#include "solvers/cg_steps.glsl"

uniform sampler2D u_r;
uniform sampler2D u_w;
#ifndef UNPRECONDITIONED
uniform sampler2D u_u;
#endif
uniform sampler2D u_rho;
uniform sampler2D u_alpha;
uniform sampler2D u_status;
uniform int u_iteration;

vec4 element(ivec2 texel) {
  vec4 r = texelFetch(u_r, texel, 0), w = texelFetch(u_w, texel, 0);
#ifdef UNPRECONDITIONED
  vec4 u = r;
#else
  vec4 u = texelFetch(u_u, texel, 0);
#endif
  return vec4(dot(r, u), dot(w, u), dot(r, r), 0.0);
}

void epilogue4(vec4 sums) {
  float gamma = sums.x, delta = sums.y;
  vec4 status = texelFetch(u_status, ivec2(0), 0);
#ifdef FIRST
  float beta = 0.0, denominator = delta;
#else
  float beta = cgBeta(gamma, texelFetch(u_rho, ivec2(0), 0).x);
  float alphaOld = texelFetch(u_alpha, ivec2(0), 0).x;
  // alphaOld = 0 only after a recorded failure: cgAlpha then returns 0 without looking.
  float denominator = alphaOld != 0.0 ? delta - beta * gamma / alphaOld : delta;
#endif
  float alpha = cgAlpha(gamma, denominator, status, float(u_iteration));
  imageStore(u_image0, ivec2(0), vec4(gamma, 0.0, 0.0, 0.0));
  imageStore(u_image1, ivec2(0), vec4(alpha, 0.0, 0.0, 0.0));
  imageStore(u_image2, ivec2(0), vec4(beta, 0.0, 0.0, 0.0));
  imageStore(u_image3, ivec2(0), vec4(sums.z, 0.0, 0.0, 0.0));
  imageStore(u_image4, ivec2(0), status);
}
