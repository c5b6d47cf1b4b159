#pragma once
// The loop the stationary iterations share (jacobi, enhancedBlockJacobi, the multigrid
// cycles): the true residual checked at iteration 0, every checkEvery iterations and at
// the cap (IterationLimits; in fixed mode only at multiples of checkEvery), each check
// recorded, and the verdict: converged, non-finite, the cap, or stagnation at the float32
// floor of the true residual.
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/SolveRecorder.h>

#include <functional>
#include <optional>
#include <string>

namespace texstream::solvers {

struct StationaryLoop {
  /// How messages name the relative residual: "||b - A x||/||b||".
  std::string residual;
  /// How messages name an iteration: "iteration", "cycle".
  std::string iteration = "iteration";
  /// The relative residual of the current iterate (a read-back).
  std::function<double()> relativeResidual;
  /// One iteration; k: the iterations done before it.
  std::function<void(int k)> step;
  /// What a non-finite residual suggests, for the message.
  std::string nonFiniteCause;
  /// Non-empty: end as MaxIterations ("stagnated") when three checks in a row fail to lower
  /// the best residual by 10 % (a true residual's float32 floor); the text says why, in the
  /// message. Never in fixed mode.
  std::string stagnation;
};

/// Runs `loop` from iteration 0 within `limits`, recording every check in `recorder`.
Verdict runStationary(const StationaryLoop& loop, const IterationLimits& limits, SolveRecorder& recorder);

/// Before any iteration: NonFinite when the right-hand side's norm is NaN or Inf;
/// Converged at iteration 0 when it is zero (recorded; the caller sets x = 0); nullopt
/// otherwise. Messages name it by `symbol` ("b", "f") and the vector's name, if any:
/// "||f|| = nan: f \"rhs\" holds NaN or Inf (or overflows)".
std::optional<Verdict> rightHandSideVerdict(double norm, const std::string& symbol, const std::string& name,
                                            SolveRecorder& recorder);

}  // namespace texstream::solvers
