#pragma once
// The time of one CG iteration, as the cg_iteration rows measure it: k iterations of plain
// CG from x = 0 with tolerance 0 (as the peers run them), set-up included, divided by k.
#include "Timing.h"

#include <texstream/linalg/LinearOperator.h>
#include <texstream/stream/Vector.h>

#include <string>

namespace texstream::bench {

/// Times k iterations of solvers::cg on A x = b, checking the residual every `checkEvery`
/// iterations, and returns the time per iteration; x then holds one more such solve's
/// result, profiled pass by pass: `breakdown` (when given) gets that solve's GPU time per
/// pass label against its wall time (passBreakdown), which tells a GPU-bound iteration
/// from one bound by the CPU's submissions. Throws std::runtime_error naming `op` where
/// the solver stops before k.
Timing timeCgIterations(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x, int k, int checkEvery,
                        const TimingSpec& spec, const std::string& op, std::string* breakdown = nullptr);

}  // namespace texstream::bench
