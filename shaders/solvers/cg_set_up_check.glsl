// CG's set-up check as a 1x1 pass (the fragment backend's; solvers/cg_set_up_decision.glsl
// says what it decides): o_out0 = the check texel, o_out1 = the status texel.
#include "solvers/cg_set_up_decision.glsl"

uniform sampler2D u_bb;
uniform sampler2D u_rr;

void kernel(ivec2 texel) {
  cgSetUpDecision(texelFetch(u_bb, ivec2(0), 0).x, texelFetch(u_rr, ivec2(0), 0).x, o_out0, o_out1);
}
