// Tests src/solvers/systems/SystemSolver.*: systems built with SystemBuilder (locked variables,
// weights, blocks of 1, 2 and 4, several right-hand sides) solved on the GPU by both
// least-squares routes (normal equations in BCRS and segment form, CGLS) and as square
// systems, against Eigen's double-precision solution of the recorded rows, on both
// backends; right-hand side updates and misuse.
#include <catch2/catch.hpp>

#include "linalg/SystemTestSupport.h"
#include "solvers/krylov/RefinementSystems.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/solvers/systems/SystemSolver.h>

#include <cmath>
#include <stdexcept>

using namespace texstream;
using Catch::Matchers::Contains;
using solvers::LeastSquaresRoute;
using solvers::SystemMatrixFormat;

namespace {

double maxRelativeError(const std::vector<double>& got, const std::vector<double>& ref) {
  double d = 0, scale = 1e-30;
  for (std::size_t i = 0; i < got.size(); ++i) {
    d = std::max(d, std::abs(got[i] - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
  }
  return d / scale;
}

void solveAndCompare(const test::RandomSystem& rs, solvers::SystemSolverOptions options) {
  const linalg::LinearSystem system = rs.builder("random").build();
  solvers::SystemSolver solver(system, options);
  for (int k = 0; k < rs.systems; ++k) {
    const solvers::SolverStatus s = solver.solve(k);
    INFO("system " << k << ": " << s.message);
    REQUIRE(s.converged());
    REQUIRE(solver.values(k).size() == rs.scalars());
    REQUIRE(maxRelativeError(solver.downloadValues(k), rs.reference(k)) < 1e-4);
  }
}

}  // namespace

TEST_CASE("SystemSolver: least squares by the normal equations and by CGLS equal Eigen's solution", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  struct Case {
    std::size_t variables;
    int blockSize, systems;
  };
  for (Case c : {Case{1, 1, 1}, Case{37, 1, 2}, Case{1, 2, 1}, Case{23, 2, 1}, Case{3, 4, 1}, Case{11, 4, 2}}) {
    const test::RandomSystem rs = test::randomLeastSquares(c.variables, c.blockSize, c.systems, c.variables * 3 + 1);
    for (auto [route, format] : {std::pair{LeastSquaresRoute::NormalEquations, SystemMatrixFormat::Auto},
                                 std::pair{LeastSquaresRoute::NormalEquations, SystemMatrixFormat::Segment},
                                 std::pair{LeastSquaresRoute::Cgls, SystemMatrixFormat::Auto}}) {
      for (auto preconditioner : {solvers::SystemPreconditioner::Multigrid, solvers::SystemPreconditioner::Jacobi,
                                  solvers::SystemPreconditioner::None}) {
        if (route == LeastSquaresRoute::Cgls && preconditioner == solvers::SystemPreconditioner::Multigrid) continue;
        INFO(c.variables << " variables of " << c.blockSize << ", " << c.systems << " systems, "
                         << solvers::leastSquaresRouteName(route) << ", " << solvers::systemMatrixFormatName(format)
                         << ", " << solvers::systemPreconditionerName(preconditioner));
        solvers::SystemSolverOptions o;
        o.route = route;
        o.format = format;
        o.preconditioner = preconditioner;
        solveAndCompare(rs, o);
      }
    }
  }
}

TEST_CASE("SystemSolver: square SPD systems with locked variables", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (int blockSize : {1, 2, 4}) {
    for (std::size_t variables : {std::size_t(1), std::size_t(13)}) {
      INFO(variables << " variables of " << blockSize);
      solveAndCompare(test::randomSquare(variables, blockSize, variables + 5), {});
    }
  }
}

TEST_CASE("SystemSolver: new locked values and right-hand sides, warm starts", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (LeastSquaresRoute route : {LeastSquaresRoute::NormalEquations, LeastSquaresRoute::Cgls}) {
    INFO(solvers::leastSquaresRouteName(route));
    test::RandomSystem rs = test::randomLeastSquares(17, 2, 1, 99);
    linalg::LinearSystem system = rs.builder("update").build();
    solvers::SystemSolverOptions o;
    o.route = route;
    solvers::SystemSolver solver(system, o);
    REQUIRE(solver.solve().converged());
    const int coldIterations = solver.lastStatus().iterations;
    // Locked scalars show their values before any solve.
    std::size_t lockedVariable = 0;
    while (!rs.locked[lockedVariable]) ++lockedVariable;
    const std::vector<double> lockedValues = {2.5, -1.25};
    system.setLockedValues(lockedVariable, lockedValues);
    rs.values[lockedVariable * 2] = 2.5;
    rs.values[lockedVariable * 2 + 1] = -1.25;
    const std::vector<double> rhs = {0.75};
    system.setRowRhs(std::size_t(2), rhs);
    rs.rows[2].rhs = rhs;
    solver.updateRightHandSides(system);
    const std::vector<double> before = solver.downloadValues();
    REQUIRE(before[lockedVariable * 2] == 2.5);
    REQUIRE(before[lockedVariable * 2 + 1] == -1.25);
    REQUIRE(solver.solve().converged());
    REQUIRE(maxRelativeError(solver.downloadValues(), rs.reference(0)) < 1e-4);
    // Solving again from the solution takes (almost) no iterations.
    REQUIRE(solver.solve().iterations < std::max(coldIterations, 2));
    REQUIRE(solver.setup().matrixNonZeros > 0);
  }
}

TEST_CASE("SystemSolver: refuses what CG cannot solve and names the system", "[gl][solvers]") {
  test::context();
  linalg::SystemBuilder b(2, linalg::SystemMode::Square, "skew");
  b.beginRow();
  b.coefficient(0, 2.0);
  b.coefficient(1, 1.0);
  b.endRow(1.0);
  b.beginRow();
  b.coefficient(0, -1.0);
  b.coefficient(1, 2.0);
  b.endRow(1.0);
  REQUIRE_THROWS_WITH(solvers::SystemSolver(b.build()), Contains("SystemSolver(\"skew\"): the square system is not symmetric"));

  linalg::SystemBuilder z(2, linalg::SystemMode::LeastSquares, "zero");
  z.beginRow();
  z.coefficient(0, 1.0);
  z.coefficient(1, 0.0);
  z.endRow(1.0);
  solvers::SystemSolverOptions o;
  o.route = LeastSquaresRoute::Cgls;
  REQUIRE_THROWS_WITH(solvers::SystemSolver(z.build(), o), Contains("unknown 1 (scalar 1) has only zero coefficients"));
  o.preconditioner = solvers::SystemPreconditioner::Multigrid;
  REQUIRE_THROWS_WITH(solvers::SystemSolver(z.build(), o),
                      Contains("SystemSolver(\"zero\"): the multigrid preconditioner needs the normal matrix"));
  o.route = LeastSquaresRoute::NormalEquations;
  REQUIRE_THROWS_WITH(solvers::SystemSolver(z.build(), o),
                      Contains("diagonal entry of row 1 is 0") && Contains("positive definite"));
  o.preconditioner = solvers::SystemPreconditioner::Jacobi;
  REQUIRE_THROWS_WITH(solvers::SystemSolver(z.build(), o), Contains("diagonal entry of row 1 is 0"));
  o.preconditioner = solvers::SystemPreconditioner::Multigrid;
  o.nearNullSpace = {std::vector<double>(3, 1.0)};
  const test::RandomSystem small = test::randomLeastSquares(5, 1, 1, 3);
  REQUIRE_THROWS_WITH(solvers::SystemSolver(small.builder("nn").build(), o),
                      Contains("SystemSolver(\"nn\"): near-null vector 0 has 3 values, the system 5 scalars"));
  o.nearNullSpace.clear();

  const test::RandomSystem rs = test::randomLeastSquares(5, 1, 1, 3);
  solvers::SystemSolver solver(rs.builder("ok").build());
  REQUIRE_THROWS_WITH(solver.solve(1), Contains("SystemSolver(\"ok\")::solve: system 1 does not exist"));
  o.cg.tolerance = -1;
  REQUIRE_THROWS_WITH(solvers::SystemSolver(rs.builder("ok").build(), o), Contains("tolerance"));
}

TEST_CASE("SystemSolver: defect correction in double reaches tolerances float CG cannot", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const test::RandomSystem rs = test::randomLeastSquares(41, 2, 1, 123);
  {
    solvers::SystemSolverOptions o;
    o.cg.tolerance = 1e-10f;
    solvers::SystemSolver refined(rs.builder("refined").build(), o);
    const solvers::SolverStatus s = refined.solve();
    INFO(s.message);
    REQUIRE(s.converged());
    REQUIRE(s.relativeResidual <= 1e-10);
    REQUIRE_THAT(s.message, Contains("in double") && Contains("round"));
    // The double-precision solution on the CPU; its float rounding on the GPU.
    REQUIRE(maxRelativeError(refined.downloadValues(), rs.reference(0)) < 1e-8);
    const std::vector<float> gpu = refined.values().download();
    REQUIRE(test::maxRelativeError(gpu, rs.reference(0)) < 1e-6);

    // Without it the float solve ends orders of magnitude short.
    o.refinementSteps = 0;
    o.cg.tolerance = 1e-5f;
    solvers::SystemSolver plain(rs.builder("plain").build(), o);
    REQUIRE(plain.solve().converged());
    REQUIRE(maxRelativeError(plain.downloadValues(), rs.reference(0)) > 1e-8);
  }
  // CGLS is checked in double, not corrected: the status says so.
  solvers::SystemSolverOptions o;
  o.route = LeastSquaresRoute::Cgls;
  o.cg.tolerance = 1e-10f;
  solvers::SystemSolver cgls(rs.builder("cgls").build(), o);
  const solvers::SolverStatus s = cgls.solve();
  REQUIRE_FALSE(s.converged());
  REQUIRE_THAT(s.message, Contains("in double") && Contains("CGLS reaches float's accuracy only"));
  REQUIRE(s.relativeResidual > 1e-10);
  REQUIRE(maxRelativeError(cgls.downloadValues(), rs.reference(0)) < 1e-4);
}

namespace {

/// The nearly singular Laplacian of the refinement tests (shift: its smallest eigenvalue
/// over the largest, about) as a square LinearSystem with b = A x* for a random x*.
linalg::LinearSystem nearlySingularSystem(double shift) {
  const linalg::Csr A = test::nearlySingularLaplacian(13, 11, shift);
  const std::vector<double> rhs = A.multiply(test::toDouble(test::randomFloats(A.rows, 5)));
  linalg::SystemBuilder b(A.rows, linalg::SystemMode::Square, "nearly singular");
  for (std::size_t i = 0; i < A.rows; ++i) {
    b.beginRow();
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k)
      b.coefficient(std::size_t(A.colIdx[std::size_t(k)]), A.values[std::size_t(k)]);
    b.endRow(rhs[i]);
  }
  return b.build();
}

/// The rounds of defect correction a status message reports ("after N rounds").
int roundsIn(const std::string& message) {
  const std::size_t at = message.find(" round");
  if (at == std::string::npos) return 0;
  const std::size_t start = message.rfind(' ', at - 1) + 1;
  return std::stoi(message.substr(start, at - start));
}

}  // namespace

TEST_CASE("SystemSolver: defect correction goes on while rounds gain, and says why it stops", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  solvers::SystemSolverOptions o;
  o.cg.tolerance = 1e-12f;
  {
    // Condition number about 1e8: float CG's corrections gain a constant factor a round,
    // and 1e-12 takes more rounds than the 4 of earlier defaults (6 and 9 on llvmpipe).
    solvers::SystemSolver solver(nearlySingularSystem(1e-8), o);
    const solvers::SolverStatus s = solver.solve();
    INFO(s.message);
    REQUIRE(s.converged());
    REQUIRE(s.relativeResidual <= 1e-12);
    REQUIRE(roundsIn(s.message) >= 1);
  }
  {
    // About 3e7: after some rounds a correction's float solve breaks down (the float
    // rounding of the matrix is not SPD for it); the verdict names that, not the cap.
    o.refinementSteps = 50;
    solvers::SystemSolver solver(nearlySingularSystem(3e-8), o);
    const solvers::SolverStatus s = solver.solve();
    INFO(s.message);
    if (s.converged()) {
      REQUIRE(s.relativeResidual <= 1e-12);
    } else {
      REQUIRE(roundsIn(s.message) < 50);
      REQUIRE_THAT(s.message, Contains("float solve failed") || Contains("defect correction stalled"));
      REQUIRE(s.relativeResidual < 1e-6);
    }
  }
}
