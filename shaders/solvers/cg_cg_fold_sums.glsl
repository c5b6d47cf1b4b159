// Chronopoulos-Gear CG's r.u and r.r after the last update of a solve: one workgroup folds
// the update's partials (reduce/folded_sums.glsl), which otherwise the next product folds.
// Outputs: u_image0 = gamma' = r.u, u_image1 = r.r.
layout(local_size_x = 256) in;
#define FOLD_SUMS 1
#include "reduce/folded_sums.glsl"

void main() {
  uint lid = gl_LocalInvocationIndex;
  s_foldedSums[lid] = loadSumPartials(lid);
  barrier();
  for (uint stride = 128u; stride > 0u; stride >>= 1) {
    if (lid < stride) s_foldedSums[lid] += s_foldedSums[lid + stride];
    barrier();
  }
  if (lid == 0u) {
    imageStore(u_image0, ivec2(0), vec4(s_foldedSums[0].x, 0.0, 0.0, 0.0));
    imageStore(u_image1, ivec2(0), vec4(s_foldedSums[0].y, 0.0, 0.0, 0.0));
  }
}
