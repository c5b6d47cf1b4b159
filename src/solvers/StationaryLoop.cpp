#include <texstream/solvers/StationaryLoop.h>

#include <texstream/solvers/SolverInputs.h>

#include <cmath>

namespace texstream::solvers {

Verdict runStationary(const StationaryLoop& loop, const IterationLimits& limits, SolveRecorder& recorder) {
  const std::string tolerance = formatNumber(limits.tolerance);
  double best = INFINITY;
  int sinceBest = 0;
  for (int k = 0;; ++k) {
    const std::string at = loop.iteration + " " + std::to_string(k);
    if ((k > 0 || !limits.fixed) && limits.due(k)) {
      const double relres = loop.relativeResidual();
      if (!std::isfinite(relres)) {
        recorder.status().relativeResidual = relres;
        return {Outcome::NonFinite, k, loop.residual + " is not finite at " + at + " (" + loop.nonFiniteCause + ")"};
      }
      recorder.record(k, relres);
      if (relres <= limits.tolerance) {
        return {Outcome::Converged, k,
                "converged: " + loop.residual + " = " + formatNumber(relres) + " <= " + tolerance + " at " + at};
      }
      if (!loop.stagnation.empty() && !limits.fixed) {
        if (relres < 0.9 * best) {
          best = relres;
          sinceBest = 0;
        } else if (++sinceBest >= 3) {
          return {Outcome::MaxIterations, k,
                  "stagnated at " + loop.residual + " = " + formatNumber(relres) + " at " + at + " (" +
                      loop.stagnation + ")"};
        }
      }
    }
    if (k == limits.maxIterations) {
      const SolverStatus& s = recorder.status();
      const std::string last = s.checkedAt.empty() ? std::string()
                                                   : ": " + loop.residual + " = " + formatNumber(s.relativeResidual);
      if (limits.fixed) return {Outcome::MaxIterations, k, "ran the fixed " + std::to_string(k) + " " + loop.iteration + "s" + last};
      return {Outcome::MaxIterations, k,
              "not converged after " + std::to_string(k) + " " + loop.iteration + "s" + last + " > " + tolerance};
    }
    loop.step(k);
  }
}

std::optional<Verdict> rightHandSideVerdict(double norm, const std::string& symbol, const std::string& name,
                                            SolveRecorder& recorder) {
  const std::string what = name.empty() ? symbol : symbol + " " + quoted(name);
  if (!std::isfinite(norm)) {
    recorder.status().relativeResidual = NAN;
    return Verdict{Outcome::NonFinite, 0,
                   "||" + symbol + "|| = " + formatNumber(norm) + ": " + what + " holds NaN or Inf (or overflows)"};
  }
  if (norm == 0.0) {
    recorder.record(0, 0.0);
    return Verdict{Outcome::Converged, 0, what + " is zero, so x = 0"};
  }
  return std::nullopt;
}

}  // namespace texstream::solvers
