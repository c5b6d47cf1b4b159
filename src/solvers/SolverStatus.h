#pragma once
// The result every texstream solver returns: no solver fails silently.
#include <string>
#include <vector>

namespace texstream::solvers {

enum class Outcome {
  Converged,      ///< relative residual <= tolerance
  MaxIterations,  ///< iteration cap reached first
  Breakdown,      ///< p^T A p <= 0 (A not SPD) or rho = 0 with a non-zero residual
  NonFinite,      ///< NaN or Inf appeared (bad input, overflow)
  Stagnated,      ///< refinement steps stopped reducing the residual above the tolerance
};

const char* outcomeName(Outcome o);

struct SolverStatus {
  Outcome outcome = Outcome::MaxIterations;
  int iterations = 0;
  /// ||r|| / ||b|| at each check (with iteration numbers in checkedAt), first entry at 0.
  std::vector<double> residualHistory;
  std::vector<int> checkedAt;
  double relativeResidual = 0;  ///< last checked value (recurrence residual)
  /// CG: restarts from the true residual b - A x after a drifted convergence (at most 1).
  int restarts = 0;
  /// Wall time of the solve, GPU work finished (fixed work that read nothing back: the time
  /// to enqueue it).
  double milliseconds = 0;
  std::string message;          ///< one line: what happened and where
  bool converged() const { return outcome == Outcome::Converged; }
};

}  // namespace texstream::solvers
