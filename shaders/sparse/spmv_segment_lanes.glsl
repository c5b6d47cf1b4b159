// y = A x for one row group of a SegmentMatrix on the compute backend with LANES
// invocations per output texel (sparse/spmv_segment.glsl says how the layout works): lane
// l sums the segment entries l, l + LANES, ..., and the lanes' partial sums meet in shared
// memory. A long segment summed by one invocation is a chain of K dependent gathers, and a
// coarse multigrid level has few texels to spread them over; split over LANES invocations
// the chain is K / LANES long and the GPU holds LANES times the invocations.
// Invocations are numbered lane-major (invocation = lane * TEXELS + slot), so one
// subgroup holds neighbouring texels at one lane and reads neighbouring value texels of
// an interleaved layout. One workgroup covers TEXELS consecutive texels (reading order)
// of the rectangle u_rect.
layout(local_size_x = 256) in;
#include "sparse/spmv_segment_product.glsl"

#define TEXELS (256 / LANES)

uniform ivec4 u_rect;  // x, y, w, h of this dispatch's rectangle, in output texels

shared vec4 s_partial[256];

void main() {
  int lid = int(gl_LocalInvocationIndex);
  int lane = lid / TEXELS, slot = lid - lane * TEXELS;
  int i = int(gl_WorkGroupID.x) * TEXELS + slot;
  bool inside = i < u_rect.z * u_rect.w;  // no early return: every invocation meets the barrier
  ivec2 texel = u_rect.xy + ivec2(i % u_rect.z, i / u_rect.z);
  vec4 sum = vec4(0.0);
  if (inside) {
    int s = segmentStart(texel);
    for (int c = lane; c < K; c += LANES) {
      vec4 a;
      ivec4 j;
      segmentEntry(s, c, a, j);
      sum += a * vec4(gatherX(j.x), gatherX(j.y), gatherX(j.z), gatherX(j.w));
    }
  }
  s_partial[lid] = sum;
  barrier();
  if (inside && lane == 0) {
    for (int l = 1; l < LANES; ++l) sum += s_partial[l * TEXELS + slot];
#if DIAGONAL
    sum += texelFetch(u_diagonal, texel, 0) * texelFetch(u_x, texel, 0);
#endif
#if PARTIAL
    sum += texelFetch(u_partial, texel, 0);
#endif
    imageStore(u_image0, texel, sum);
  }
}
