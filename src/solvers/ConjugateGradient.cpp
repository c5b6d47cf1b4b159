// Conjugate gradients with all scalars on the GPU (Bolz et al. 2003, §3.1; Krüger &
// Westermann 2005, Listing 44-1: rho and newrho swap roles each iteration).
#include <texstream/solvers/ConjugateGradient.h>

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
#include <chrono>
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
  const auto start = std::chrono::steady_clock::now();
  gl::StateGuard guard;
  stream::BackendScope backendScope(opts.backend);
  stream::Runtime::current().requireBackend(stream::Runtime::current().backend());

  const std::string where = "cg(" + quoted(A.name()) + ")";
  const bool preconditioned = M != nullptr && !M->isIdentity();
  const auto* jacobi = preconditioned ? dynamic_cast<const JacobiPreconditioner*>(M) : nullptr;
  if (jacobi) stream::requireSameLayout(where.c_str(), b, jacobi->inverseDiagonal());

  const stream::Layout& layout = b.layout();
  Vector r = Vector::temporary(layout, "cg.r");
  Vector p = Vector::temporary(layout, "cg.p");
  Vector q = Vector::temporary(layout, "cg.q");
  Vector z;
  if (preconditioned) z = Vector::temporary(layout, "cg.z");
  Vector& zr = preconditioned ? z : r;  // z = M^-1 r; without M it is r itself
  Scalar bb("cg.bb"), rho("cg.rho"), rhoNew("cg.rhoNew"), pq("cg.pq"), alpha("cg.alpha"), beta("cg.beta");
  Scalar rr("cg.rr"), status("cg.status"), check("cg.check");

  SolverStatus result;
  auto finish = [&](Outcome outcome, int iterations, std::string message) {
    glFinish();
    result.outcome = outcome;
    result.iterations = iterations;
    result.message = where + ": " + std::move(message);
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  auto record = [&](int iteration, double relres) {
    result.residualHistory.push_back(relres);
    result.checkedAt.push_back(iteration);
    result.relativeResidual = relres;
    if (opts.onCheck) opts.onCheck(iteration, relres);
  };

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

  if (jacobi) linalg::multiply(r, jacobi->inverseDiagonal(), z);
  else if (preconditioned) M->apply(r, z);
  stream::dot(r, zr, rho);
  linalg::copy(zr, p);
  status.write4({0.0f, 0.0f, 0.0f, 0.0f});

  // The packed check texel: (||r||^2, status code, iteration, value). Without a
  // preconditioner rho = r.r already; with one, r.r is one extra reduction per check.
  auto enqueueCheck = [&]() {
    if (preconditioned) stream::dot(r, r, rr);
    Pass("solvers/cg_check").label("cg check").input("u_rr", preconditioned ? rr : rho).input("u_status", status)
        .output(check).run();
  };
  // Turns a check texel into a verdict, or nullopt to go on.
  struct Verdict {
    Outcome outcome;
    int iteration;  // where the failure happened; -1: the current one
    std::string message;
  };
  auto evaluate = [&](int at, const std::array<float, 4>& v) -> std::optional<Verdict> {
    const int code = int(std::lround(v[1]));
    const int when = int(std::lround(v[2]));
    const double value = v[3];
    const double relres = std::sqrt(double(v[0]) / bnorm2);
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
                         " at iteration " + std::to_string(at)};
    }
    if (code == kRhoZero) {
      return Verdict{Outcome::Breakdown, when,
                     "breakdown at iteration " + std::to_string(when) + ": r^T M^-1 r = 0 while ||r||/||b|| = " +
                         formatNumber(relres) + ", the preconditioner " + quoted(M ? M->name() : "") +
                         " is singular"};
    }
    return std::nullopt;
  };

  std::unique_ptr<stream::ScalarReadback> readback;
  if (opts.asynchronousCheck) readback = std::make_unique<stream::ScalarReadback>();
  int pendingAt = 0, lastChecked = 0;

  // On the compute backend the dot products end in the same dispatch that computes alpha
  // (and beta): 5 passes an iteration instead of 11 (Reduction.h); measured on an H200 at
  // 100^3 unknowns the mip levels and 1x1 passes cost ~7-10 us each, the data ~25 us.
  const bool fused = stream::Runtime::current().backend() == stream::Backend::Compute;
  for (int k = 1; k <= opts.maxIterations; ++k) {
    A.apply(p, q);
    if (fused) {
      stream::reduceInto(stream::ReductionOp::Dot, p, &q,
                         {"solvers/cg_dot_alpha", [&](Pass& pass) {
                            pass.label("cg p.q alpha").input("u_rho", rho).input("u_status", status)
                                .uniform("u_iteration", k).output(pq).output(alpha).output(status);
                          }});
    } else {
      stream::dot(p, q, pq);
      Pass("solvers/cg_alpha").label("cg alpha").input("u_rho", rho).input("u_pq", pq).input("u_status", status)
          .uniform("u_iteration", k).output(alpha).output(status).run();
    }
    auto bindUpdate = [&](Pass& update) {
      update.input("u_x", x).input("u_p", p).input("u_r", r).input("u_q", q)
          .coefficient("u_alpha", Coefficient(alpha)).output(x).output(r);
      if (jacobi) update.define("JACOBI").input("u_inverseDiagonal", jacobi->inverseDiagonal()).output(z);
    };
    if (fused && (!preconditioned || jacobi)) {
      // x, r (and z) updated and rho' = r.z, beta = rho'/rho in one dispatch.
      stream::reduceCustom(layout, {"solvers/cg_update_dot_beta", [&](Pass& pass) {
                                      pass.label("cg update r.z beta");
                                      bindUpdate(pass);
                                      pass.input("u_rho", rho).output(rhoNew).output(beta);
                                    }});
      if (k < opts.maxIterations) linalg::xpay(zr, Coefficient(beta), p);
      std::swap(rho, rhoNew);
    } else {
    Pass update("solvers/cg_update");
    update.label(jacobi ? "cg update x r z" : "cg update x r");
    bindUpdate(update);
    update.run();
    if (preconditioned && !jacobi) M->apply(r, z);
    if (fused) {
      stream::reduceInto(stream::ReductionOp::Dot, r, &zr, {"solvers/cg_dot_beta", [&](Pass& pass) {
                           pass.label("cg r.z beta").input("u_rho", rho).output(rhoNew).output(beta);
                         }});
      if (k < opts.maxIterations) linalg::xpay(zr, Coefficient(beta), p);
    } else {
      stream::dot(r, zr, rhoNew);
      if (k < opts.maxIterations) {  // the last iteration needs no new direction
        Pass("solvers/cg_beta").label("cg beta").input("u_rhoNew", rhoNew).input("u_rho", rho).output(beta).run();
        linalg::xpay(zr, Coefficient(beta), p);
      }
    }
    std::swap(rho, rhoNew);
    }

    const bool due = k % opts.checkEvery == 0;
    std::optional<Verdict> verdict;
    if (!readback) {
      if (due) {
        enqueueCheck();
        verdict = evaluate(k, check.read4());
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
      // iteration before the GPU reaches the read-back (seen on an H200: a solve needing 6
      // iterations ran to its cap of 1000).
      if (readback->pending() && (readback->ready() || k - pendingAt >= opts.checkEvery)) {
        verdict = evaluate(pendingAt, readback->value());
        lastChecked = pendingAt;
      }
    }
    if (verdict) return finish(verdict->outcome, verdict->iteration < 0 ? k : verdict->iteration, verdict->message);
  }

  // The cap: take a read-back still in flight, then check the final iterate itself.
  if (readback && readback->pending()) {
    const int at = pendingAt;
    if (auto verdict = evaluate(at, readback->value())) {
      return finish(verdict->outcome, verdict->iteration < 0 ? opts.maxIterations : verdict->iteration,
                    verdict->message);
    }
    lastChecked = at;
  }
  if (lastChecked != opts.maxIterations) {
    enqueueCheck();
    if (auto verdict = evaluate(opts.maxIterations, check.read4())) {
      return finish(verdict->outcome, verdict->iteration < 0 ? opts.maxIterations : verdict->iteration,
                    verdict->message);
    }
  }
  return finish(Outcome::MaxIterations, opts.maxIterations,
                "not converged after " + std::to_string(opts.maxIterations) +
                    " iterations: ||r||/||b|| = " + formatNumber(result.relativeResidual) + " > " + formatNumber(tol));
}

}  // namespace texstream::solvers
