// CG's scalar steps, shared by the 1x1 passes (cg_alpha, cg_beta: fragment backend) and
// the compute backend's Chronopoulos-Gear epilogue (cg_cg_alpha_beta).
#include "solvers/cg_status.glsl"

// alpha = rho / (p^T A p) (Krüger & Westermann, Listing 44-1), with breakdown detection on
// the GPU so that no iteration needs a read-back: the first failure is recorded in the
// sticky status and from then on alpha = 0, so x (and r) stop changing and stay finite
// until the CPU's next check.
float cgAlpha(float rho, float pq, inout vec4 status, float iteration) {
  float alpha = 0.0;
  if (status.x == CG_RUNNING) {
    if (!cgFinite(rho)) {
      status = vec4(CG_NON_FINITE, iteration, rho, 0.0);
    } else if (!cgFinite(pq)) {
      status = vec4(CG_NON_FINITE, iteration, pq, 0.0);
    } else if (rho == 0.0) {
      status = vec4(CG_RHO_ZERO, iteration, rho, 0.0);
    } else if (rho < 0.0) {
      status = vec4(CG_RHO_NEGATIVE, iteration, rho, 0.0);
    } else if (pq <= 0.0) {
      status = vec4(CG_PQ_NOT_POSITIVE, iteration, pq, 0.0);
    } else {
      alpha = rho / pq;
      if (!cgFinite(alpha)) {
        status = vec4(CG_NON_FINITE, iteration, alpha, 0.0);
        alpha = 0.0;
      }
    }
  }
  return alpha;
}

// beta = rho' / rho (Listing 44-1). rho = 0 only after an exact solution or a recorded
// failure (alpha is then 0 and the status says why), so beta = 0 there. A non-finite rho'
// passes through: the next alpha step records it.
float cgBeta(float rhoNew, float rho) { return rho != 0.0 ? rhoNew / rho : 0.0; }
