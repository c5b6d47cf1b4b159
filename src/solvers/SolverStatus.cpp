#include <texstream/solvers/SolverStatus.h>

#include <texstream/text/Format.h>

namespace texstream::solvers {

const char* outcomeName(Outcome o) {
  switch (o) {
    case Outcome::Converged: return "converged";
    case Outcome::MaxIterations: return "max-iterations";
    case Outcome::Breakdown: return "breakdown";
    case Outcome::NonFinite: return "non-finite";
    case Outcome::Stagnated: return "stagnated";
  }
  return "unknown";
}

void holdToTrueResidual(SolverStatus& status, double trueRelres, double tolerance, const std::string& how,
                        const std::string& remedy) {
  using text::formatNumber;
  status.trueRelativeResidual = trueRelres;
  const bool recurrenceMet = status.outcome == Outcome::Converged ||
                             (status.outcome == Outcome::Stagnated && status.relativeResidual <= tolerance);
  if (!recurrenceMet) return;
  const std::string prefix = status.solver.empty() ? std::string() : status.solver + ": ";
  const std::string recurrence = "the recurrence residual ||r||/||b|| = " + formatNumber(status.relativeResidual);
  const std::string truth = "the true residual ||b - A x||/||b|| = " + formatNumber(trueRelres) + " (" + how +
                            (status.restarts > 0 ? ", after a restart from b - A x" : "") + ")";
  if (trueRelres <= tolerance) {
    if (status.outcome == Outcome::Converged) return;
    status.outcome = Outcome::Converged;
    status.message = prefix + "converged: " + truth + " <= " + formatNumber(tolerance) + " after " +
                     std::to_string(status.iterations) + " iterations (" + recurrence + ")";
    return;
  }
  status.outcome = Outcome::Stagnated;
  status.message = prefix + "stagnated at float precision: " + recurrence + " met the tolerance " +
                   formatNumber(tolerance) + " after " + std::to_string(status.iterations) + " iterations, " + truth +
                   " does not; " + remedy;
}

}  // namespace texstream::solvers
