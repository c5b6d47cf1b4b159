// CG direction update factor on one texel (fragment backend; the compute backend's
// Chronopoulos-Gear CG computes it in a reduction's epilogue: cg_cg_alpha_beta.glsl).
#include "solvers/cg_steps.glsl"

uniform sampler2D u_rhoNew;
uniform sampler2D u_rho;

void kernel(ivec2 texel) {
  o_out0 = vec4(cgBeta(texelFetch(u_rhoNew, ivec2(0), 0).x, texelFetch(u_rho, ivec2(0), 0).x), 0.0, 0.0, 0.0);
}
