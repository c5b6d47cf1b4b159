// The dot-product half of a sparse product fused with y . x (sparse/spmv_segment_spans.glsl,
// sparse/product_dot_whole_texture.glsl): every invocation of a workgroup of 256 hands
// foldDot() its texels' share of y . x; the workgroup sums them in shared memory and
// writes the sum to its own slot u_groupBase + (its index) of the scratch buffer, and the
// last workgroup of all the product's dispatches (a counter the dispatches share says
// which) folds the slots and calls epilogue(value) once, as reduce/workgroup.glsl does
// within one dispatch. Several dispatches run in order, each behind a storage barrier.
#ifndef TEXSTREAM_SPARSE_PRODUCT_DOT_FOLD_GLSL
#define TEXSTREAM_SPARSE_PRODUCT_DOT_FOLD_GLSL

uniform int u_groupBase;    // first scratch slot of this dispatch
uniform int u_totalGroups;  // workgroups of all the dispatches of this product

#include "reduce/folded_sums.glsl"

// Binding 0: the matrix's own scratch, a zero counter then one float per workgroup.
// `coherent`: the last group reads the other groups' partials, which must not come from a
// stale cache.
layout(std430, binding = 0) coherent buffer DotScratch {
  uint d_counter;
  uint d_pad0, d_pad1, d_pad2;
  float d_partials[];
};

shared float s_sums[256];
shared bool s_lastGroup;

void epilogue(float value);

// withSums: also s_foldedSums (FOLD_SUMS), in the same steps.
void foldShared(uint lid, bool withSums) {
  for (uint stride = 128u; stride > 0u; stride >>= 1) {
    if (lid < stride) {
      s_sums[lid] += s_sums[lid + stride];
#ifdef FOLD_SUMS
      if (withSums) s_foldedSums[lid] += s_foldedSums[lid + stride];
#endif
    }
    barrier();
  }
}

// Called once by every invocation of the workgroup (uniform control flow: it has barriers).
void foldDot(float part) {
  uint lid = gl_LocalInvocationIndex;
  s_sums[lid] = part;
  barrier();
  foldShared(lid, false);
  if (lid == 0u) {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    d_partials[uint(u_groupBase) + group] = s_sums[0];
    memoryBarrierBuffer();  // the partial is visible before the counter says so
    s_lastGroup = atomicAdd(d_counter, 1u) == uint(u_totalGroups) - 1u;
  }
  barrier();
  if (!s_lastGroup) return;  // the same for the whole group: s_lastGroup is shared
  memoryBarrierBuffer();
#ifdef FOLD_SUMS
  vec4 sumPartials = loadSumPartials(lid);
#endif
  float acc = 0.0;
  for (uint i = lid; i < uint(u_totalGroups); i += 256u) acc += d_partials[i];
  s_sums[lid] = acc;
#ifdef FOLD_SUMS
  s_foldedSums[lid] = sumPartials;
#endif
  barrier();
  foldShared(lid, true);
#ifdef FOLD_SUMS
  g_foldedSums = s_foldedSums[0];
#endif
  if (lid == 0u) {
    d_counter = 0u;  // ready for the next product
    epilogue(s_sums[0]);
  }
}

#endif
