// y = M x for a TransferMatrix on the compute backend, one invocation per row (the
// one-invocation-per-texel kernel, sparse/spmv_transfer.glsl, sums the four rows of its
// texel one after the other). Same textures, uniforms and defines as that kernel; the four
// rows of a texel meet in shared memory. Invocations are numbered row-major within the
// texel (invocation = channel * 64 + slot), so one subgroup holds neighbouring texels.
// Covers every texel of y's layout (u_texels), 64 per workgroup.
layout(local_size_x = 256) in;
#define TRANSFER_NO_KERNEL
#include "sparse/spmv_transfer.glsl"

uniform int u_texels;  // texels of y's layout

shared float s_rows[256];

void main() {
  int lid = int(gl_LocalInvocationIndex);
  int channel = lid / 64, slot = lid - channel * 64;
  int t = int(gl_WorkGroupID.x) * 64 + slot;
  int row = 4 * t + channel;
  float sum = 0.0;
  if (t < u_texels && row < u_rows) sum = rowSum(row);
  s_rows[lid] = sum;
  barrier();  // every invocation meets it: no early return above
  if (t < u_texels && channel == 0) {
    vec4 y = vec4(s_rows[slot], s_rows[64 + slot], s_rows[128 + slot], s_rows[192 + slot]);
    ivec2 texel = ivec2(t % u_width, t / u_width);
#ifdef ACCUMULATE
    y += texelFetch(u_add, texel, 0);
#endif
    imageStore(u_image0, texel, y);
  }
}
