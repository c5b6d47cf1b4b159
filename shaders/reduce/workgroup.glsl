// One-dispatch reduction for the compute backend. Each workgroup sums a grid-strided share
// of the texels (neighbouring invocations read neighbouring texels) and folds it in shared
// memory; the last workgroup to finish (an atomic counter tells it) folds every group's
// partial and calls epilogue(value) once. The mip-style reduction of Bolz §3.1.3 needs
// log_k(size) passes, and on a GPU its small late levels are latency-bound; this needs one.
// Include it, then define `vec4 element(ivec2 texel)` (the texel's contribution; it may
// also imageStore results for that texel, which is how CG fuses its x/r update with the
// next dot product) and `void epilogue(float value)`, which runs in one invocation.
// reduce/elements.glsl defines element() for OP_SUM / OP_DOT / OP_SUMSQ / OP_MAXABS.
// With REDUCE_VEC4 the four channels are four separate sums (element() returns one
// contribution per channel) and `void epilogue4(vec4 sums)` gets them unfolded: several
// reductions of the same texels in one dispatch (CG's r.u, w.u and r.r).
// PARTIALS_ONLY: every workgroup writes its partial and stops; no last workgroup, no
// epilogue: a later dispatch folds the partials (reduce/folded_sums.glsl).
// FOLD_SUMS: the last workgroup also folds such partials of an earlier dispatch into
// g_foldedSums for the epilogue.
layout(local_size_x = 16, local_size_y = 16) in;

uniform ivec2 u_size;  // the texture's size in texels: every texel is visited (padding is zero)

// Binding 0: Runtime::reductionScratch(). `coherent`: the last group reads the other
// groups' partials, which must not come from a stale cache.
layout(std430, binding = 0) coherent buffer ReductionScratch {
  uint r_counter;
  uint r_pad0, r_pad1, r_pad2;
  vec4 r_partials[];
};

#include "reduce/combine.glsl"
#include "reduce/folded_sums.glsl"

shared vec4 s_partials[256];
shared bool s_lastGroup;

vec4 element(ivec2 texel);
#ifdef REDUCE_VEC4
void epilogue4(vec4 sums);
#else
void epilogue(float value);
#endif

// withSums: also s_foldedSums (FOLD_SUMS), in the same steps.
void foldSharedPartials(uint lid, bool withSums) {
  for (uint stride = 128u; stride > 0u; stride >>= 1) {
    if (lid < stride) {
      s_partials[lid] = COMBINE(s_partials[lid], s_partials[lid + stride]);
#ifdef FOLD_SUMS
      if (withSums) s_foldedSums[lid] += s_foldedSums[lid + stride];
#endif
    }
    barrier();
  }
}

void main() {
  uint lid = gl_LocalInvocationIndex;
  uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  // A 2D grid stride: each workgroup reads 16 x 16 tiles of texels, which is how GPUs lay
  // textures out (docs/performance.md); two accumulators keep two loads in flight.
  ivec2 first = ivec2(gl_GlobalInvocationID.xy);
  ivec2 stride = ivec2(gl_NumWorkGroups.xy) * 16;
  vec4 acc0 = vec4(0.0), acc1 = vec4(0.0);
  for (int y = first.y; y < u_size.y; y += stride.y) {
    int x = first.x;
    for (; x + stride.x < u_size.x; x += 2 * stride.x) {
      acc0 = COMBINE(acc0, element(ivec2(x, y)));
      acc1 = COMBINE(acc1, element(ivec2(x + stride.x, y)));
    }
    if (x < u_size.x) acc0 = COMBINE(acc0, element(ivec2(x, y)));
  }
  s_partials[lid] = COMBINE(acc0, acc1);
  barrier();
  foldSharedPartials(lid, false);
#ifdef PARTIALS_ONLY
  if (lid == 0u) r_partials[group] = s_partials[0];
#else
  if (lid == 0u) {
    r_partials[group] = s_partials[0];
    memoryBarrierBuffer();  // the partial is visible before the counter says so
    s_lastGroup = atomicAdd(r_counter, 1u) == groups - 1u;
  }
  barrier();
  if (!s_lastGroup) return;  // the same for the whole group: s_lastGroup is shared

  memoryBarrierBuffer();
#ifdef FOLD_SUMS
  vec4 sumPartials = loadSumPartials(lid);
#endif
  vec4 acc = vec4(0.0);
  for (uint i = lid; i < groups; i += 256u) acc = COMBINE(acc, r_partials[i]);
  s_partials[lid] = acc;
#ifdef FOLD_SUMS
  s_foldedSums[lid] = sumPartials;
#endif
  barrier();
  foldSharedPartials(lid, true);
#ifdef FOLD_SUMS
  g_foldedSums = s_foldedSums[0];
#endif
  if (lid == 0u) {
    r_counter = 0u;  // ready for the next reduction without a CPU clear
#ifdef REDUCE_VEC4
    epilogue4(s_partials[0]);
#else
    float value = foldChannels(s_partials[0]);
#ifdef FINAL_SQRT
    value = sqrt(value);
#endif
    epilogue(value);
#endif
  }
#endif  // PARTIALS_ONLY
}
