// Conjugate gradients with all scalars on the GPU (Bolz et al. 2003, §3.1; Krüger &
// Westermann 2005, Listing 44-1: rho and newrho swap roles each iteration).
#include <texstream/solvers/ConjugateGradient.h>

#include <texstream/solvers/SolveRecorder.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/JacobiPreconditioner.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace texstream::solvers {

namespace {

using stream::Coefficient;
using stream::Pass;
using stream::Scalar;
using stream::Vector;

// Mirrors shaders/solvers/cg_status.glsl.
enum StatusCode { kRunning = 0, kPqNotPositive = 1, kNonFinite = 2, kRhoZero = 3, kRhoNegative = 4 };

void validate(const linalg::LinearOperator& A, const Vector& b, const Vector& x, const CgOptions& opts) {
  requireIterationOptions("cg", opts.tolerance, opts.maxIterations, opts.checkEvery);
  requireSquareSystem("cg", A, b, x);
}

}  // namespace

SolverStatus cg(const linalg::LinearOperator& A, const Vector& b, Vector& x, const CgOptions& opts,
                const Preconditioner* M) {
  validate(A, b, x, opts);
  const std::string where = "cg(" + quoted(A.name()) + ")";
  SolveRecorder recorder(where, opts.onCheck);
  gl::StateGuard guard;
  stream::BackendScope backendScope(opts.backend);
  stream::Runtime::current().requireBackend(stream::Runtime::current().backend());

  const bool preconditioned = M != nullptr && !M->isIdentity();
  const auto* jacobi = preconditioned ? dynamic_cast<const JacobiPreconditioner*>(M) : nullptr;
  if (jacobi) stream::requireSameLayout(where.c_str(), b, jacobi->inverseDiagonal());

  const stream::Layout& layout = b.layout();
  Vector r = Vector::temporary(layout, "cg.r");
  Vector p = Vector::temporary(layout, "cg.p");
  Vector q = Vector::temporary(layout, "cg.q");  // A x at the start; A p in the classic loop
  Vector z;
  if (preconditioned) z = Vector::temporary(layout, "cg.z");
  Vector& zr = preconditioned ? z : r;  // z = M^-1 r; without M it is r itself
  // Pooled: every one is written on the GPU before it is read (status just below).
  Scalar bb = Scalar::temporary("cg.bb"), rho = Scalar::temporary("cg.rho"), rhoNew = Scalar::temporary("cg.rhoNew");
  Scalar pq = Scalar::temporary("cg.pq"), alpha = Scalar::temporary("cg.alpha"), beta = Scalar::temporary("cg.beta");
  Scalar rr = Scalar::temporary("cg.rr"), status = Scalar::temporary("cg.status"), check = Scalar::temporary("cg.check");
  // Chronopoulos-Gear: rho is gamma = r.u, rhoNew the next one; the next alpha.
  Scalar alphaNew = Scalar::temporary("cg.alphaNew");

  SolverStatus& result = recorder.status();
  auto finish = [&](Outcome outcome, int iterations, const std::string& message) {
    return recorder.finish(outcome, iterations, message);
  };
  auto record = [&](int iteration, double relres) { recorder.record(iteration, relres); };

  // Set-up: r = b - A x, and one blocking read of ||b||^2 and ||r||^2.
  stream::dot(b, b, bb);
  A.apply(x, q);
  linalg::linearCombination(1.0f, b, -1.0f, q, r);
  stream::dot(r, r, rr);
  // One read-back for both (each blocking read waits for the GPU to drain).
  Pass("solvers/cg_initial").label("cg initial").input("u_bb", bb).input("u_rr", rr).output(check).run();
  const std::array<float, 4> initial = check.read4();
  const double bb0 = initial[0];
  const double rr0 = initial[1];
  if (!std::isfinite(bb0)) {
    result.relativeResidual = NAN;
    return finish(Outcome::NonFinite, 0,
                  "||b||^2 = " + formatNumber(bb0) + ": b " + quoted(b.name()) + " holds NaN or Inf (or overflows)");
  }
  if (bb0 == 0.0) {
    x.setZero();
    record(0, 0.0);
    return finish(Outcome::Converged, 0, "b " + quoted(b.name()) + " is zero, so x = 0");
  }
  if (!std::isfinite(rr0)) {
    result.relativeResidual = NAN;
    return finish(Outcome::NonFinite, 0,
                  "the initial residual b - A x is not finite: NaN or Inf in x " + quoted(x.name()) + " or in A");
  }
  const double bnorm2 = bb0;
  const double tol = opts.tolerance;
  record(0, std::sqrt(rr0 / bnorm2));
  if (result.relativeResidual <= tol) {
    return finish(Outcome::Converged, 0, "the initial guess already meets the tolerance (||r||/||b|| = " +
                                              formatNumber(result.relativeResidual) + ")");
  }
  if (opts.maxIterations == 0) return finish(Outcome::MaxIterations, 0, "maxIterations = 0");

  // On the compute backend: Chronopoulos-Gear CG (ConjugateGradient.h); on the fragment
  // backend the classic loop of Krüger & Westermann.
  const bool fused = stream::Runtime::current().backend() == stream::Backend::Compute;
  Vector w, s;  // Chronopoulos-Gear: w = A u, s = A p
  if (fused) {
    w = Vector::temporary(layout, "cg.w");
    s = Vector::temporary(layout, "cg.s");
  }
  if (jacobi) linalg::multiply(r, jacobi->inverseDiagonal(), z);
  else if (preconditioned) M->apply(r, z);
  status.write4({0.0f, 0.0f, 0.0f, 0.0f});
  // Chronopoulos-Gear's reductions. rhoNew = r.u and rr = r.r (without an update: at the
  // start, after a restart, or after a preconditioner other than Jacobi).
  auto sumsWithoutUpdate = [&]() {
    stream::reduceCustom(layout, {"solvers/cg_cg_update_reduce", [&](Pass& pass) {
                                    pass.label("cg r.u r.r").define("NO_UPDATE").input("u_r", r);
                                    if (preconditioned) pass.input("u_u", z);
                                    else pass.define("UNPRECONDITIONED");
                                    pass.output(rhoNew).output(rr);
                                  }});
  };
  // w = A u with delta = w.u, and in the same dispatch(es) the next alpha and beta from
  // rho, rhoNew and alpha (solvers/cg_cg_alpha_beta.glsl); then rho and alpha are current.
  auto productAndStep = [&](int iteration, bool first) {
    A.applyAndDot(zr, w, {"solvers/cg_cg_alpha_beta.glsl", [&](Pass& pass) {
                            if (first) pass.define("FIRST");
                            pass.input("u_gammaNew", rhoNew).input("u_gamma", rho).input("u_alpha", alpha)
                                .input("u_status", status).uniform("u_iteration", iteration)
                                .output(alphaNew).output(beta).output(status);
                          }});
    std::swap(rho, rhoNew);
    std::swap(alpha, alphaNew);
  };
  if (fused) {
    sumsWithoutUpdate();
    productAndStep(1, true);
  } else {
    stream::dot(r, zr, rho);
    linalg::copy(zr, p);
  }

  // The packed check texel: (||r||^2, status code, iteration, value). Without a
  // preconditioner rho = r.r already; with one, r.r is one extra reduction per check.
  auto enqueueCheck = [&]() {
    // Chronopoulos-Gear computes r.r in every reduction.
    if (preconditioned && !fused) stream::dot(r, r, rr);
    Pass("solvers/cg_check").label("cg check").input("u_rr", preconditioned || fused ? rr : rho).input("u_status", status)
        .output(check).run();
  };
  std::unique_ptr<stream::ScalarReadback> readback;
  if (opts.asynchronousCheck) readback = std::make_unique<stream::ScalarReadback>();
  int pendingAt = 0, lastChecked = 0;

  // A convergence the updated residual reports is checked against the true residual b - A x
  // (one product, one read-back), on both backends. Chronopoulos-Gear updates s = A p by a
  // recurrence too, so its r drifts from b - A x further than standard CG's (Ghysels &
  // Vanroose 2014, §4, for pipelined CG: on a badly scaled 456-row system converging at
  // 1e-5 its true residual was 25x the tolerance); standard CG drifts too in float
  // (docs/performance.md: a mixed-boundary Poisson problem at 1e-5 ended at 3x).
  // Beyond kDriftLimit times the tolerance the iteration restarts from the true residual
  // (r = b - A x, p = u). Convergence itself is judged, as in every CG, by the updated
  // residual: requiring ||b - A x|| <= tol in float stalls at tolerances near float's
  // attainable accuracy (MGPCG at 1e-6 on 65^2: 1.15e-6 for ever). A residual
  // replacement that keeps the directions (Ghysels & Vanroose's) broke down here: near
  // convergence the float residual no longer satisfies the orthogonality Chronopoulos-
  // Gear's alpha recurrence assumes, and its denominator went negative.
  // One restart at most: b - A x evaluated in float has a floor of its own (a 300-row mesh
  // system at 1e-6: 2e-5 however accurate x is, max |x - x*| = 7e-7), and restarting
  // against that floor never ends; one restart already removes the drift accumulated so far.
  constexpr double kDriftLimit = 2.0;
  int restartsLeft = 1;
  bool restart = false;
  // The true relative residual, and whether the iteration restarted because of it.
  auto confirmConvergence = [&](int k, bool& restarted) -> double {
    if (readback && readback->pending()) readback->value();  // a stale check: drop it
    A.apply(x, q);
    linalg::linearCombination(1.0f, b, -1.0f, q, r);
    stream::dot(r, r, rr);
    const double trueRelres = std::sqrt(double(rr.read4()[0]) / bnorm2);
    restarted = !(trueRelres <= kDriftLimit * tol) && std::isfinite(trueRelres) && k < opts.maxIterations &&
                restartsLeft > 0;
    if (restarted) {
      --restartsLeft;
      ++result.restarts;
      status.write4({0.0f, 0.0f, 0.0f, 0.0f});  // a fresh start: no code from before it
      if (jacobi) linalg::multiply(r, jacobi->inverseDiagonal(), z);
      else if (preconditioned) M->apply(r, z);
      if (fused) {
        sumsWithoutUpdate();
        productAndStep(k + 1, true);
        restart = true;
      } else {
        stream::dot(r, zr, rho);
        linalg::copy(zr, p);
      }
    }
    return trueRelres;
  };

  // Turns a check texel into a verdict, or nullopt to go on.
  struct Verdict {
    Outcome outcome;
    int iteration;  // where the failure happened; -1: the current one
    std::string message;
  };
  // `at`: the iteration the check texel was taken at; `now`: the current one (later with
  // asynchronous checks).
  auto evaluate = [&](int at, int now, const std::array<float, 4>& v) -> std::optional<Verdict> {
    const int code = int(std::lround(v[1]));
    const int when = int(std::lround(v[2]));
    const double value = v[3];
    double relres = std::sqrt(double(v[0]) / bnorm2);
    std::string trueResidual;
    if (relres <= tol && (code == kRunning || code == kRhoZero)) {
      bool restarted = false;
      const double trueRelres = confirmConvergence(now, restarted);
      if (restarted) {
        record(now, trueRelres);
        return std::nullopt;
      }
      trueResidual = " (||b - A x||/||b|| = " + formatNumber(trueRelres) +
                     (result.restarts > 0 ? ", after a restart from b - A x)" : ")");
    }
    if (std::isfinite(relres) && code != kNonFinite) record(at, relres);
    switch (code) {
      case kPqNotPositive:
        return Verdict{Outcome::Breakdown, when,
                       "breakdown at iteration " + std::to_string(when) + ": p^T A p = " + formatNumber(value) +
                           " <= 0, the matrix is not symmetric positive definite"};
      case kRhoNegative:
        return Verdict{Outcome::Breakdown, when,
                       "breakdown at iteration " + std::to_string(when) + ": r^T M^-1 r = " + formatNumber(value) +
                           " < 0, the preconditioner " + quoted(M ? M->name() : "") + " is not positive definite"};
      case kNonFinite:
        result.relativeResidual = NAN;
        return Verdict{Outcome::NonFinite, when,
                       "a non-finite value (" + formatNumber(value) + ") appeared at iteration " +
                           std::to_string(when) + " (overflow, or NaN/Inf in the matrix)"};
      default: break;
    }
    if (!std::isfinite(relres)) {
      result.relativeResidual = NAN;
      return Verdict{Outcome::NonFinite, at,
                     "||r||^2 = " + formatNumber(v[0]) + " at iteration " + std::to_string(at) +
                         " (overflow, or NaN/Inf in the matrix)"};
    }
    if (relres <= tol) {
      // rho = 0 at iteration `when` means iteration when - 1 left r exactly 0, and x has
      // not moved since (alpha = 0): that is where the solve really ended.
      return Verdict{Outcome::Converged, code == kRhoZero ? when - 1 : -1,
                     "converged: ||r||/||b|| = " + formatNumber(relres) + " <= " + formatNumber(tol) +
                         " at iteration " + std::to_string(at) + trueResidual};
    }
    if (code == kRhoZero) {
      return Verdict{Outcome::Breakdown, when,
                     "breakdown at iteration " + std::to_string(when) + ": r^T M^-1 r = 0 while ||r||/||b|| = " +
                         formatNumber(relres) + ", the preconditioner " + quoted(M ? M->name() : "") +
                         " is singular"};
    }
    return std::nullopt;
  };


  for (int k = 1; k <= opts.maxIterations; ++k) {
    if (fused) {
      // Chronopoulos & Gear 1989, two dispatches an iteration where the operator folds a
      // dot product into its product (SegmentMatrix, BcrsMatrix), three otherwise: p = u + beta p,
      // s = w + beta s, x += alpha p, r -= alpha s (u = M^-1 r too for Jacobi) in place,
      // with r.u and r.r; then w = A u with w.u, alpha and beta. Standard CG needs two
      // reductions after the product, each a latency-bound pass on large GPUs.
      stream::reduceCustom(layout, {"solvers/cg_cg_update_reduce", [&](Pass& update) {
                                      update.label(jacobi ? "cg update p s x r u, r.u r.r" : "cg update p s x r, r.u r.r")
                                          .inPlace();
                                      update.input("u_r", r).input("u_w", w).input("u_p", p).input("u_s", s)
                                          .input("u_x", x).coefficient("u_alpha", Coefficient(alpha))
                                          .coefficient("u_beta", Coefficient(beta));
                                      if (preconditioned) update.input("u_u", z);
                                      else update.define("UNPRECONDITIONED");
                                      if (k == 1 || restart) update.define("FIRST");
                                      update.output(p).output(s).output(x).output(r);
                                      if (jacobi) {
                                        update.define("JACOBI").input("u_inverseDiagonal", jacobi->inverseDiagonal())
                                            .output(z);
                                      }
                                      update.output(rhoNew).output(rr);
                                    }});
      restart = false;
      if (preconditioned && !jacobi) {
        M->apply(r, z);
        sumsWithoutUpdate();
      }
      if (k < opts.maxIterations) productAndStep(k + 1, false);
    } else {
      A.apply(p, q);
      stream::dot(p, q, pq);
      Pass("solvers/cg_alpha").label("cg alpha").input("u_rho", rho).input("u_pq", pq).input("u_status", status)
          .uniform("u_iteration", k).output(alpha).output(status).run();
      Pass update("solvers/cg_update");
      update.label(jacobi ? "cg update x r z" : "cg update x r");
      update.input("u_x", x).input("u_p", p).input("u_r", r).input("u_q", q)
          .coefficient("u_alpha", Coefficient(alpha)).output(x).output(r);
      if (jacobi) update.define("JACOBI").input("u_inverseDiagonal", jacobi->inverseDiagonal()).output(z);
      update.run();
      if (preconditioned && !jacobi) M->apply(r, z);
      stream::dot(r, zr, rhoNew);
      if (k < opts.maxIterations) {  // the last iteration needs no new direction
        Pass("solvers/cg_beta").label("cg beta").input("u_rhoNew", rhoNew).input("u_rho", rho).output(beta).run();
        linalg::xpay(zr, Coefficient(beta), p);
      }
      std::swap(rho, rhoNew);
    }

    const bool due = k % opts.checkEvery == 0;
    std::optional<Verdict> verdict;
    if (!readback) {
      if (due) {
        enqueueCheck();
        verdict = evaluate(k, k, check.read4());
        lastChecked = k;
      }
    } else {
      if (due && !readback->pending()) {
        enqueueCheck();
        readback->start(check);
        pendingAt = k;
      }
      // Take the value when it has landed, or wait for it once the CPU has run a whole
      // check interval ahead: without that bound a fast CPU enqueues every remaining
      // iteration before the GPU reaches the read-back, and a solve needing a few
      // iterations runs to its cap.
      if (readback->pending() && (readback->ready() || k - pendingAt >= opts.checkEvery)) {
        verdict = evaluate(pendingAt, k, readback->value());
        lastChecked = pendingAt;
      }
    }
    if (verdict) return finish(verdict->outcome, verdict->iteration < 0 ? k : verdict->iteration, verdict->message);
  }

  // The cap: take a read-back still in flight, then check the final iterate itself.
  if (readback && readback->pending()) {
    const int at = pendingAt;
    std::optional<Verdict> verdict = evaluate(at, opts.maxIterations, readback->value());
    if (verdict) {
      return finish(verdict->outcome, verdict->iteration < 0 ? opts.maxIterations : verdict->iteration,
                    verdict->message);
    }
    lastChecked = at;
  }
  if (lastChecked != opts.maxIterations) {
    enqueueCheck();
    std::optional<Verdict> verdict = evaluate(opts.maxIterations, opts.maxIterations, check.read4());
    if (verdict) {
      return finish(verdict->outcome, verdict->iteration < 0 ? opts.maxIterations : verdict->iteration,
                    verdict->message);
    }
  }
  return finish(Outcome::MaxIterations, opts.maxIterations,
                "not converged after " + std::to_string(opts.maxIterations) +
                    " iterations: ||r||/||b|| = " + formatNumber(result.relativeResidual) + " > " + formatNumber(tol));
}

}  // namespace texstream::solvers
