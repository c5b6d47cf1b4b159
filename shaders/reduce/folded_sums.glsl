// Chronopoulos-Gear CG's r.u and r.r, folded by the product that follows their update
// (solvers/krylov/ChronopoulosGearCg.cpp). The update pass writes one vec4 partial a
// workgroup and stops (reduce/workgroup.glsl with PARTIALS_ONLY); the last workgroup of the
// product's dot (sparse/product_dot_fold.glsl, or reduce/workgroup.glsl for an operator
// without a fused dot) folds those partials together with its own and leaves the result
// in g_foldedSums before it calls epilogue(). The update then ends without an atomic
// counter and a last workgroup's fold of its own: one dispatch tail an iteration fewer.
// The partials were written by an earlier dispatch, behind a storage barrier: no
// `coherent` needed.
#ifndef TEXSTREAM_REDUCE_FOLDED_SUMS_GLSL
#define TEXSTREAM_REDUCE_FOLDED_SUMS_GLSL
#ifdef FOLD_SUMS

// Binding 2: the update's scratch, reduce/workgroup.glsl's layout (a counter it leaves
// alone, then one vec4 a workgroup).
layout(std430, binding = 2) readonly buffer FoldedSumPartials {
  uint f_counter;
  uint f_pad0, f_pad1, f_pad2;
  vec4 f_partials[];
};
uniform int u_sumPartials;  // workgroups of the update pass

shared vec4 s_foldedSums[256];
vec4 g_foldedSums;  // the folded sums, for epilogue()

// The sum of this invocation's share of the partials (its loads in flight with the fold's
// own); the fold stores it in s_foldedSums, folds that with its own shared sums and sets
// g_foldedSums = s_foldedSums[0].
vec4 loadSumPartials(uint lid) {
  vec4 acc = vec4(0.0);
  for (uint i = lid; i < uint(u_sumPartials); i += 256u) acc += f_partials[i];
  return acc;
}

#endif
#endif
