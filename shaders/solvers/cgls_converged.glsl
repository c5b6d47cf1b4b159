// CGLS's convergence test on the GPU, once an iteration: when ||A^T r||^2 <= u_threshold
// (tolerance^2 ||A^T b||^2) the sticky status records CG_CONVERGED, after which every
// alpha is 0 (cg_steps.glsl), so x stays at the first iterate that met the tolerance
// until the CPU's next check. Past that point CGLS's float recurrences only add noise
// (A^T r is then a difference of nearly equal terms) and can diverge.
#include "solvers/cg_status.glsl"

uniform sampler2D u_ss;      // ||A^T r||^2 in .x
uniform sampler2D u_status;
uniform float u_threshold;
uniform int u_iteration;

void kernel(ivec2 texel) {
  vec4 status = texelFetch(u_status, ivec2(0), 0);
  float ss = texelFetch(u_ss, ivec2(0), 0).x;
  if (status.x == CG_RUNNING && ss <= u_threshold) status = vec4(CG_CONVERGED, float(u_iteration), ss, 0.0);
  o_out0 = status;
}
