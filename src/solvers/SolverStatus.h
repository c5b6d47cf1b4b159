#pragma once
// The result every texstream solver returns: no solver fails silently. "Converged" means
// the true residual ||b - A x|| / ||b|| of the returned x meets the tolerance: a solver
// whose iteration stops on a recurrence residual (CG) forms the true one once at the end,
// and holdToTrueResidual judges by it.
#include <cmath>
#include <string>
#include <vector>

namespace texstream::solvers {

enum class Outcome {
  Converged,      ///< relative residual <= tolerance (the true one, where it was formed)
  MaxIterations,  ///< iteration cap reached first
  Breakdown,      ///< p^T A p <= 0 (A not SPD) or rho = 0 with a non-zero residual
  NonFinite,      ///< NaN or Inf appeared (bad input, overflow)
  /// The residual stopped falling above the tolerance: refinement steps gaining too little,
  /// or CG whose recurrence residual met the tolerance while the true residual did not
  /// (stagnated at float precision; the message gives both and the remedy).
  Stagnated,
};

const char* outcomeName(Outcome o);

struct SolverStatus {
  Outcome outcome = Outcome::MaxIterations;
  int iterations = 0;
  /// ||r|| / ||b|| at each check (with iteration numbers in checkedAt), first entry at 0.
  std::vector<double> residualHistory;
  std::vector<int> checkedAt;
  double relativeResidual = 0;  ///< last checked value (recurrence residual)
  /// ||b - A x|| / ||b|| of the returned x, formed once after a recurrence residual met the
  /// tolerance (CG: one more product, in float on the GPU; a tool holding A in double forms
  /// its own, holdToTrueResidual); NaN where none was formed.
  double trueRelativeResidual = NAN;
  /// Who solved, as the message begins: "cg(\"A\")".
  std::string solver;
  /// CG: restarts from the true residual b - A x after a drifted convergence (at most 1).
  int restarts = 0;
  /// Wall time of the solve, GPU work finished (fixed work that read nothing back: the time
  /// to enqueue it).
  double milliseconds = 0;
  std::string message;          ///< one line: what happened and where
  bool converged() const { return outcome == Outcome::Converged; }
};

/// Judges a solve whose iteration stopped on its recurrence residual (relativeResidual <=
/// tolerance: Converged, or Stagnated by an earlier true residual) by the true residual of
/// its x, `trueRelres`, formed `how` ("in double"): Converged where it meets the tolerance;
/// else Stagnated, the message reading "stagnated at float precision", with both residuals
/// and `remedy` ("solve in mixed precision (--precision mixed)"). Other outcomes keep their
/// verdict. trueRelativeResidual is set either way. CgDriver and the tools that hold A in
/// higher precision judge with it, so "converged" means one thing everywhere.
void holdToTrueResidual(SolverStatus& status, double trueRelres, double tolerance, const std::string& how,
                        const std::string& remedy);

}  // namespace texstream::solvers
