#include <texstream/solvers/SolverStatus.h>

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

}  // namespace texstream::solvers
