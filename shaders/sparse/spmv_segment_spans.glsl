// y = A x for a whole SegmentMatrix in one dispatch (compute backend), every row group at
// once: passes per group (sparse/spmv_segment.glsl, the fragment backend's) are dependent
// dispatches, and a matrix of many groups (LSCM's normal matrices, the coarse levels of
// aggregation multigrid) would spend more time between them than in them.
// The span table (SegmentMatrix::spanDispatch) lists each rectangle of each group with its
// first workgroup, its segment length K, its lanes and its values stride; a workgroup finds
// its span by binary search and covers 256 / lanes consecutive texels (reading order) of
// its rectangle. Lane l of a texel sums the segment entries l, l + lanes, ...: a long
// segment summed by one invocation is a chain of K dependent gathers, and a coarse level
// has few texels to spread them over. Lanes are numbered lane-major (invocation = lane *
// texels + slot), so one subgroup reads neighbouring texels at one lane.
// DIAGONAL: 1 adds diag(A) x (applyInternal), 0 leaves it out (applyOffDiagonal).
// WITH_DOT: fused with y . x and an epilogue (sparse/product_dot_fold.glsl; composed by
// stream::composeReductionKernel), which CG's w = A u, w . u takes. u_image0 is y.
layout(local_size_x = 256) in;
#define K 0
#define PARTIAL 0
#include "sparse/spmv_segment_product.glsl"
#ifdef WITH_DOT
#include "sparse/product_dot_fold.glsl"
#endif

struct SegmentSpan {
  int firstGroup;  // first workgroup of this span
  int k;           // segment entries per texel
  int lanes;       // invocations per texel: 1, 4 or 8
  int stride;      // values texels between consecutive entries of a segment
  ivec4 rect;      // x, y, w, h in output texels
};
layout(std430, binding = 1) readonly buffer SegmentSpans { SegmentSpan s_spans[]; };
uniform int u_spans;

shared vec4 s_lanePartial[256];

void main() {
  int group = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int lo = 0, hi = u_spans - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (s_spans[mid].firstGroup <= group) lo = mid;
    else hi = mid - 1;
  }
  SegmentSpan span = s_spans[lo];
  int texels = 256 / span.lanes;
  int lid = int(gl_LocalInvocationIndex);
  int lane = lid / texels, slot = lid - lane * texels;
  int i = (group - span.firstGroup) * texels + slot;
  bool inside = i < span.rect.z * span.rect.w;  // no early return: every invocation meets the barriers
  ivec2 texel = span.rect.xy + ivec2(i % span.rect.z, i / span.rect.z);
#ifdef WITH_DOT
  // Fetched before the gathers, as in sparse/product_dot_whole_texture.glsl.
  vec4 xHere = inside && lane == 0 ? texelFetch(u_x, texel, 0) : vec4(0.0);
#endif
  // The diagonal term first where one invocation sums the texel (the order of
  // sparse/spmv_segment.glsl), after the lanes' partial sums otherwise.
  vec4 sum = vec4(0.0);
#if DIAGONAL
  if (inside && span.lanes == 1) sum = texelFetch(u_diagonal, texel, 0) * texelFetch(u_x, texel, 0);
#endif
  if (inside) {
    int s = int(texelFetch(u_starts, texel, 0).x);
    for (int c = lane; c < span.k; c += span.lanes) {
      ivec2 at = tiledTexelAtShift(s + c * span.stride, u_valuesShift);
      vec4 a = texelFetch(u_values, at, 0);
      ivec4 j = ivec4(texelFetch(u_columns, at, 0));
      sum += a * vec4(gatherX(j.x), gatherX(j.y), gatherX(j.z), gatherX(j.w));
    }
  }
  s_lanePartial[lid] = sum;
  barrier();
  float part = 0.0;
  if (inside && lane == 0) {
    for (int l = 1; l < span.lanes; ++l) sum += s_lanePartial[l * texels + slot];
#if DIAGONAL
    if (span.lanes > 1) sum += texelFetch(u_diagonal, texel, 0) * texelFetch(u_x, texel, 0);
#endif
    imageStore(u_image0, texel, sum);
#ifdef WITH_DOT
    part = dot(sum, xHere);
#endif
  }
#ifdef WITH_DOT
  foldDot(part);
#endif
}
