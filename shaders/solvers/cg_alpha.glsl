// CG step length on one texel: alpha = rho / (p^T A p) (Krüger & Westermann, Listing 44-1,
// "alpha = rho/temp"), with breakdown detection on the GPU so that no iteration needs a
// read-back: the first failure is recorded in the sticky status texel and from then on
// alpha = 0, so x (and r) stop changing and stay finite until the CPU's next check.
// Outputs: o_out0 = (alpha, 0, 0, 0), o_out1 = the updated status (cg_status.glsl).
#include "solvers/cg_status.glsl"

uniform sampler2D u_rho;     // rho = r^T z (z = M^-1 r)
uniform sampler2D u_pq;      // p^T A p
uniform sampler2D u_status;  // the status before this iteration
uniform int u_iteration;     // 1-based iteration number, recorded with a failure

void kernel(ivec2 texel) {
  float rho = texelFetch(u_rho, ivec2(0), 0).x;
  float pq = texelFetch(u_pq, ivec2(0), 0).x;
  vec4 status = texelFetch(u_status, ivec2(0), 0);
  float it = float(u_iteration);
  float alpha = 0.0;
  if (status.x == CG_RUNNING) {
    if (!cgFinite(rho)) {
      status = vec4(CG_NON_FINITE, it, rho, 0.0);
    } else if (!cgFinite(pq)) {
      status = vec4(CG_NON_FINITE, it, pq, 0.0);
    } else if (rho == 0.0) {
      status = vec4(CG_RHO_ZERO, it, rho, 0.0);
    } else if (rho < 0.0) {
      status = vec4(CG_RHO_NEGATIVE, it, rho, 0.0);
    } else if (pq <= 0.0) {
      status = vec4(CG_PQ_NOT_POSITIVE, it, pq, 0.0);
    } else {
      alpha = rho / pq;
      if (!cgFinite(alpha)) {
        status = vec4(CG_NON_FINITE, it, alpha, 0.0);
        alpha = 0.0;
      }
    }
  }
  o_out0 = vec4(alpha, 0.0, 0.0, 0.0);
  o_out1 = status;
}
