// One-dispatch double-float dot product for the compute backend: the scheme of
// reduce/workgroup.glsl (each invocation sums a grid-strided share of the texels, each
// workgroup folds its invocations' sums in shared memory, the last workgroup to finish folds
// every group's partial) with every partial sum a pair (common/double_float.glsl). The
// fragment backend's mip-style levels (linalg/double_float_dot.glsl) take four or more
// passes for a large vector, and on a GPU their small late levels are latency-bound.
// Inputs as double_float_dot.glsl's first level: x = u_xHi + u_xLo, y = u_yHi + u_yLo,
// WEIGHTED: each product also times the float u_weight. Output u_image0 = (head, tail, 0, 0).
#include "common/double_float.glsl"
#include "linalg/double_float_dot_term.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

uniform ivec2 u_size;  // the vectors' texture size: every texel is visited (padding is zero)

// Binding 0: Runtime::reductionScratch(), a counter then two slots (head, tail) per
// workgroup. `coherent`: the last group reads the other groups' partials, which must not
// come from a stale cache.
layout(std430, binding = 0) coherent buffer ReductionScratch {
  uint r_counter;
  uint r_pad0, r_pad1, r_pad2;
  vec4 r_partials[];
};

shared vec4 s_hi[256];
shared vec4 s_lo[256];
shared bool s_lastGroup;

void addProduct(inout vec4 hi, inout vec4 lo, ivec2 at) {
  vec4 pHi, pLo;
  dfDotTerm(at, pHi, pLo);
  dfAdd(hi, lo, pHi, pLo);
}

void foldShared(uint lid) {
  for (uint stride = 128u; stride > 0u; stride >>= 1) {
    if (lid < stride) {
      vec4 hi = s_hi[lid], lo = s_lo[lid];
      dfAdd(hi, lo, s_hi[lid + stride], s_lo[lid + stride]);
      s_hi[lid] = hi;
      s_lo[lid] = lo;
    }
    barrier();
  }
}

void main() {
  uint lid = gl_LocalInvocationIndex;
  uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  ivec2 first = ivec2(gl_GlobalInvocationID.xy);
  ivec2 stride = ivec2(gl_NumWorkGroups.xy) * 16;
  vec4 hi = vec4(0.0), lo = vec4(0.0);
  for (int y = first.y; y < u_size.y; y += stride.y)
    for (int x = first.x; x < u_size.x; x += stride.x) addProduct(hi, lo, ivec2(x, y));
  s_hi[lid] = hi;
  s_lo[lid] = lo;
  barrier();
  foldShared(lid);
  if (lid == 0u) {
    r_partials[2u * group] = s_hi[0];
    r_partials[2u * group + 1u] = s_lo[0];
    memoryBarrierBuffer();  // the partial is visible before the counter says so
    s_lastGroup = atomicAdd(r_counter, 1u) == groups - 1u;
  }
  barrier();
  if (!s_lastGroup) return;  // the same for the whole group: s_lastGroup is shared

  memoryBarrierBuffer();
  hi = vec4(0.0);
  lo = vec4(0.0);
  for (uint i = lid; i < groups; i += 256u) dfAdd(hi, lo, r_partials[2u * i], r_partials[2u * i + 1u]);
  s_hi[lid] = hi;
  s_lo[lid] = lo;
  barrier();
  foldShared(lid);
  if (lid == 0u) {
    r_counter = 0u;  // ready for the next reduction without a CPU clear
    vec4 h = s_hi[0], l = s_lo[0];
    dfFoldChannels(h, l);
    imageStore(u_image0, ivec2(0), vec4(h.x, l.x, 0.0, 0.0));
  }
}
