// CG step length on one texel (fragment backend; the compute backend computes it in a
// reduction's epilogue: cg_cg_alpha_beta.glsl). Outputs: o_out0 = (alpha, 0, 0, 0), o_out1 = the
// updated sticky status (cg_status.glsl).
#include "solvers/cg_steps.glsl"

uniform sampler2D u_rho;     // rho = r^T z (z = M^-1 r)
uniform sampler2D u_pq;      // p^T A p
uniform sampler2D u_status;  // the status before this iteration
uniform int u_iteration;     // 1-based iteration number, recorded with a failure

void kernel(ivec2 texel) {
  vec4 status = texelFetch(u_status, ivec2(0), 0);
  float alpha = cgAlpha(texelFetch(u_rho, ivec2(0), 0).x, texelFetch(u_pq, ivec2(0), 0).x, status,
                        float(u_iteration));
  o_out0 = vec4(alpha, 0.0, 0.0, 0.0);
  o_out1 = status;
}
