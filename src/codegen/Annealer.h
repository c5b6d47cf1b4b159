#pragma once
// texstream::codegen: the transformation stage of Bajaj et al. 2004 — search, by
// simulated annealing (§2.3.3, Figure 4) over (i, j) swaps (§2.3.2), for an equivalent
// expression of lower cost C(E) (§2.3.1), or C(E1, E2) for a Gauss–Seidel sweep (§3.3).
//
// Schedule (the paper tuned its control parameters per problem "through repeated
// trial-and-error experiments" and does not print them; ours are below, fully determined
// by AnnealingSchedule and reproducible from the seed on any platform: the generator is
// our own xoshiro256**, not <random>'s distributions):
//  - A run starts from the input with T = initialTemperature; after every
//    movesPerTemperature proposals (Figure 4's "equilibrium" loop) T is multiplied by a
//    constant factor chosen so that the last step runs at finalTemperature (geometric
//    cooling; initial = final gives a constant temperature).
//  - A proposal swaps a uniformly random position i with a uniformly random position j in
//    another block (Gauss–Seidel: any other position; for a plain expression a swap inside
//    one block leaves every block's c and r unchanged). It is accepted with probability
//    min(1, exp(-ΔC / (k T))).
//  - `restarts` independent runs are made from the input (run r seeds its generator with
//    seed + r * 0xD1B54A32D192ED03); the best expression of all is returned. The search stops early once a cost <=
//    stopAtCost is met (by default the lower bound ceil(nnz / 4): no instruction handles more than four non-zeros of
//    A).
// The result is never costlier than the input (the input is the first "best").
#include <texstream/codegen/GaussSeidel.h>
#include <texstream/codegen/LinearExpression.h>

#include <cstdint>
#include <vector>

namespace texstream::codegen {

struct AnnealingSchedule {
  std::uint64_t seed = 1;
  long long iterations = 1000000;   ///< proposals per run (0: no search)
  int restarts = 1;                 ///< independent runs (>= 1)
  int movesPerTemperature = 0;      ///< proposals per temperature step; 0: 4 x padded size
  double initialTemperature = 2.0;  ///< T0
  double finalTemperature = 0.1;    ///< T at the last step of a run
  double boltzmann = 1.0;           ///< k, relating cost units to temperature
  int stopAtCost = -1;              ///< stop when reached; -1: lowerBound()
  /// Throws std::invalid_argument naming the bad field.
  void validate() const;
};

/// ceil(nnz / 4): no expression equivalent to e costs less (each MUL, MAD or DP4 handles at
/// most four non-zeros, one per lane). For a Gauss–Seidel sweep, of its iteration matrix.
int costLowerBound(const LinearExpression& e);

/// One point of the cost history, taken at the end of each temperature step (and at the
/// start of each run).
struct CostSample {
  int run = 0;
  long long iteration = 0;  ///< proposals made so far, over all runs
  double temperature = 0.0;
  int cost = 0;  ///< the current expression's cost
  int best = 0;  ///< the best cost met so far, over all runs
};

struct AnnealingRun {
  std::vector<int> permutation;  ///< best found (LinearExpression.h's convention), padded size
  int initialCost = 0;
  int bestCost = 0;
  int lowerBound = 0;        ///< costLowerBound of the input
  long long iterations = 0;  ///< proposals made, over all runs
  long long accepted = 0;
  long long bestIteration = 0;  ///< proposal (over all runs) at which bestCost was first met
  int runs = 0;                 ///< runs started
  bool stoppedEarly = false;    ///< stopAtCost was reached
  std::vector<CostSample> history;
};

struct AnnealedExpression {
  LinearExpression expression;  ///< the input permuted by run.permutation (padded size)
  AnnealingRun run;
};
struct AnnealedGaussSeidel {
  GaussSeidelSystem system;
  AnnealingRun run;
};

/// Minimises C(E) over equivalent expressions.
AnnealedExpression anneal(const LinearExpression& e, const AnnealingSchedule& schedule = {});
/// Minimises C(E1, E2) over orderings of the sweep.
AnnealedGaussSeidel anneal(const GaussSeidelSystem& s, const AnnealingSchedule& schedule = {});

}  // namespace texstream::codegen
