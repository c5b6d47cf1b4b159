// y = A x for a SegmentMatrix (compute backend, single-pass rows) fused with the dot
// product y . x and an epilogue that consumes it, so that CG's w = A u and w . u take one
// pass instead of two (src/solvers/ConjugateGradient.cpp). One dispatch per rectangle of
// each row group, as the plain product; every workgroup writes its share of y . x to its
// own slot u_groupBase + (its index) of the scratch buffer, and the last workgroup of all
// the dispatches (a counter the dispatches share says which) folds the slots and calls
// epilogue(value) once, as reduce/workgroup.glsl does within one dispatch. The
// dispatches run in order, each behind a storage barrier.
// Composed with the epilogue's file by stream::composeReductionKernel: u_image0 is y.
layout(local_size_x = 16, local_size_y = 16) in;
#include "sparse/spmv_segment_product.glsl"

uniform ivec4 u_rect;       // x, y, w, h of this dispatch's rectangle, in output texels
uniform int u_groupBase;    // first scratch slot of this dispatch
uniform int u_totalGroups;  // workgroups of all the dispatches of this product

layout(std430, binding = 0) coherent buffer DotScratch {
  uint d_counter;
  uint d_pad0, d_pad1, d_pad2;
  float d_partials[];
};

shared float s_sums[256];
shared bool s_lastGroup;

void epilogue(float value);

void foldShared(uint lid) {
  for (uint stride = 128u; stride > 0u; stride >>= 1) {
    if (lid < stride) s_sums[lid] += s_sums[lid + stride];
    barrier();
  }
}

void main() {
  uint lid = gl_LocalInvocationIndex;
  ivec2 local = ivec2(gl_GlobalInvocationID.xy);
  float part = 0.0;
  if (local.x < u_rect.z && local.y < u_rect.w) {  // no early return: every invocation meets the barriers
    ivec2 texel = u_rect.xy + local;
    vec4 y = segmentProduct(texel);
    imageStore(u_image0, texel, y);
    part = dot(y, texelFetch(u_x, texel, 0));
  }
  s_sums[lid] = part;
  barrier();
  foldShared(lid);
  if (lid == 0u) {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    d_partials[uint(u_groupBase) + group] = s_sums[0];
    memoryBarrierBuffer();  // the partial is visible before the counter says so
    s_lastGroup = atomicAdd(d_counter, 1u) == uint(u_totalGroups) - 1u;
  }
  barrier();
  if (!s_lastGroup) return;
  memoryBarrierBuffer();
  float acc = 0.0;
  for (uint i = lid; i < uint(u_totalGroups); i += 256u) acc += d_partials[i];
  s_sums[lid] = acc;
  barrier();
  foldShared(lid);
  if (lid == 0u) {
    d_counter = 0u;  // ready for the next product
    epilogue(s_sums[0]);
  }
}
