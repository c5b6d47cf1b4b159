// Chronopoulos-Gear CG's scalar step, the epilogue of delta = w . u (w = A u): with
// gamma' = r.u from the update pass (solvers/cg_cg_update_reduce.glsl),
//   beta'  = gamma' / gamma                                  (cgBeta)
//   alpha' = gamma' / (delta - beta' gamma' / alpha)         (cgAlpha: breakdowns recorded)
// where delta - beta' gamma' / alpha equals p'^T A p' of standard CG (Chronopoulos & Gear
// 1989). FIRST: alpha' = gamma' / delta, beta' = 0.
// REPLACED: r (and u) were just replaced by the true residual (solvers/krylov/MixedPrecisionCg.h),
// so the orthogonality that shortcut rests on no longer holds exactly; s = A p was
// recomputed and p'^T A p' = (u + beta' p)^T (w + beta' s) is formed in full:
//   delta + 2 beta' (u . s) + beta'^2 (p . s)      with u_us = u . s, u_ps = p . s.
// Writes alpha' to EPILOGUE_IMAGE0, beta' to EPILOGUE_IMAGE1, the status to EPILOGUE_IMAGE2.
// FOLD_SUMS: gamma' and r.r come folded from the update's partials (g_foldedSums,
// reduce/folded_sums.glsl) instead of u_gammaNew; they are written to EPILOGUE_IMAGE3 and
// EPILOGUE_IMAGE4.
#include "solvers/cg_steps.glsl"

#ifndef FOLD_SUMS
uniform sampler2D u_gammaNew;
#endif
uniform sampler2D u_gamma;
uniform sampler2D u_alpha;
uniform sampler2D u_status;
uniform int u_iteration;
#ifdef REPLACED
uniform sampler2D u_us;
uniform sampler2D u_ps;
#endif

void epilogue(float delta) {
  vec4 status = texelFetch(u_status, ivec2(0), 0);
#ifdef FOLD_SUMS
  float gamma = g_foldedSums.x;
  imageStore(EPILOGUE_IMAGE3, ivec2(0), vec4(gamma, 0.0, 0.0, 0.0));
  imageStore(EPILOGUE_IMAGE4, ivec2(0), vec4(g_foldedSums.y, 0.0, 0.0, 0.0));
#else
  float gamma = texelFetch(u_gammaNew, ivec2(0), 0).x;
#endif
#ifdef FIRST
  float beta = 0.0, denominator = delta;
#elif defined(REPLACED)
  float beta = cgBeta(gamma, texelFetch(u_gamma, ivec2(0), 0).x);
  float denominator = delta + 2.0 * beta * texelFetch(u_us, ivec2(0), 0).x + beta * beta * texelFetch(u_ps, ivec2(0), 0).x;
#else
  float beta = cgBeta(gamma, texelFetch(u_gamma, ivec2(0), 0).x);
  float alphaOld = texelFetch(u_alpha, ivec2(0), 0).x;
  // alphaOld = 0 only after a recorded failure: cgAlpha then returns 0 without looking.
  float denominator = alphaOld != 0.0 ? delta - beta * gamma / alphaOld : delta;
#endif
  float alpha = cgAlpha(gamma, denominator, status, float(u_iteration));
  imageStore(EPILOGUE_IMAGE0, ivec2(0), vec4(alpha, 0.0, 0.0, 0.0));
  imageStore(EPILOGUE_IMAGE1, ivec2(0), vec4(beta, 0.0, 0.0, 0.0));
  imageStore(EPILOGUE_IMAGE2, ivec2(0), status);
}
