// CG's set-up check, decided on the GPU so that no read-back stands between the set-up and
// the first iterations (solvers/cg_set_up_check.glsl runs it as a 1x1 pass,
// solvers/cg_set_up_reduce.glsl in the last invocation of its reduction). From ||b||^2 and
// ||r0||^2:
//   check  = (||b||^2, ||r0||^2, stopped, 0), read back by the CPU while CG iterates;
//   status = the status texel (cg_status.glsl): CG_STOPPED where the solve ends before its
//            first iteration (b = 0 or not finite, r0 not finite, or ||r0|| <= tol ||b||),
//            else running. A stopped status holds alpha at 0, so the iterations enqueued
//            before the CPU reads the check leave x and r as they were.
#include "solvers/cg_status.glsl"

uniform float u_toleranceSquared;  // tol^2 in float (0 where it underflows: only r0 = 0 stops)

void cgSetUpDecision(float bb, float rr, out vec4 check, out vec4 status) {
  bool stopped = !(bb > 0.0) || !cgFinite(bb) || !cgFinite(rr) || rr <= u_toleranceSquared * bb;
  check = vec4(bb, rr, stopped ? 1.0 : 0.0, 0.0);
  status = stopped ? vec4(CG_STOPPED, 0.0, rr, 0.0) : vec4(CG_RUNNING, 0.0, 0.0, 0.0);
}
