// CG's set-up check on the GPU, so that no read-back stands between the set-up and the
// first iterations. From ||b||^2 and ||r0||^2:
//   o_out0 = (||b||^2, ||r0||^2, stopped, 0), read back by the CPU while CG iterates;
//   o_out1 = the status texel (cg_status.glsl): CG_STOPPED where the solve ends before
//            its first iteration (b = 0 or not finite, r0 not finite, or ||r0|| <= tol ||b||),
//            else running. A stopped status holds alpha at 0, so the iterations enqueued
//            before the CPU reads o_out0 leave x and r as they were.
#include "solvers/cg_status.glsl"

uniform sampler2D u_bb;
uniform sampler2D u_rr;
uniform float u_toleranceSquared;  // tol^2 in float (0 where it underflows: only r0 = 0 stops)

void kernel(ivec2 texel) {
  float bb = texelFetch(u_bb, ivec2(0), 0).x;
  float rr = texelFetch(u_rr, ivec2(0), 0).x;
  bool stopped = !(bb > 0.0) || !cgFinite(bb) || !cgFinite(rr) || rr <= u_toleranceSquared * bb;
  o_out0 = vec4(bb, rr, stopped ? 1.0 : 0.0, 0.0);
  o_out1 = stopped ? vec4(CG_STOPPED, 0.0, rr, 0.0) : vec4(CG_RUNNING, 0.0, 0.0, 0.0);
}
