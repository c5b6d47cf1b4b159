// Tests src/solvers/krylov/MixedPrecisionRefinement.*: float CG inside double-float defect
// correction reaches relative residuals of 1e-11 (checked in double on the CPU from the
// pairs the GPU holds, and against a double solve), stagnation below what the defect's
// precision allows is reported as such, and misuse throws named errors.
#include <catch2/catch.hpp>

#include "solvers/krylov/RefinementSystems.h"
#include "solvers/Reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/krylov/MixedPrecisionRefinement.h>

#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>

using namespace texstream;
using linalg::DoubleFloatVector;
using solvers::Outcome;
using test::contrastDiffusion;
using test::randomRhs;
using test::relativeResidual;

namespace {

double relativeError(const std::vector<double>& x, const std::vector<double>& ref) {
  double ee = 0, rr = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    ee += (x[i] - ref[i]) * (x[i] - ref[i]);
    rr += ref[i] * ref[i];
  }
  return std::sqrt(ee / std::max(rr, 1e-300));
}

/// An operator without a double-float residual kernel.
class ForwardingOperator : public linalg::LinearOperator {
 public:
  explicit ForwardingOperator(const linalg::LinearOperator& inner) : m_inner(inner) {}
  void apply(const stream::Vector& x, stream::Vector& y) const override { m_inner.apply(x, y); }
  void diagonal(stream::Vector& d) const override { m_inner.diagonal(d); }
  std::size_t rows() const override { return m_inner.rows(); }
  std::size_t cols() const override { return m_inner.cols(); }
  const std::string& name() const override { return m_name; }
  double bytesPerApply() const override { return 0; }
  double flopsPerApply() const override { return 0; }

 private:
  const linalg::LinearOperator& m_inner;
  std::string m_name = "forwarding";
};

}  // namespace

TEST_CASE("Refinement with float CG reaches 1e-11 on Poisson problems of awkward sizes", "[gl][solvers][refinement]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (auto [nx, ny] : {std::pair<std::size_t, std::size_t>{1, 1}, {7, 1}, {61, 41}, {97, 13}}) {
    INFO(nx << " x " << ny);
    const std::size_t n = nx * ny;
    const auto A = linalg::StencilMatrix::poisson2D(nx, ny, "poisson");
    const linalg::Csr csr = linalg::Csr::poisson2D(nx, ny);
    const auto rhs = randomRhs(n, n);
    DoubleFloatVector b(n, "b"), x(n, "x");
    b.upload(rhs);
    std::vector<int> stepsSeen;
    solvers::RefinementOptions options{.innerTolerance = 1e-4};
    options.onStep = [&](int step, int, double) { stepsSeen.push_back(step); };
    const auto status = solvers::refine(A, b, x, {.tolerance = 1e-11f}, options, solvers::cgInnerSolve(A, {}));
    INFO(status.message);
    REQUIRE(status.converged());
    REQUIRE(status.relativeResidual <= 1e-11);
    REQUIRE(status.outerSteps() >= 1);
    REQUIRE(int(stepsSeen.size()) == status.outerSteps() + 1);
    REQUIRE(status.residualHistory.size() == std::size_t(status.outerSteps() + 1));
    const auto xs = x.download();
    // The true residual of the pairs, in double: what the status claims, within the
    // precision of its float-rounded defect.
    REQUIRE(relativeResidual(csr, xs, rhs) <= 2e-11);
    REQUIRE(relativeError(xs, test::solveReference(csr, rhs)) <= 1e-8);
  }
}

TEST_CASE("Refinement with Jacobi-preconditioned CG on a dense SPD matrix", "[gl][solvers][refinement]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = 67;
  const auto m = test::randomFloats(n * n, 5);
  std::vector<float> spd(n * n, 0.0f);
  linalg::Csr csr;
  std::vector<std::int64_t> rows, cols;
  std::vector<double> values;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      // A = M M^T / n + diag(1 + i): SPD, entries rounded to float before both sides see them.
      double s = 0;
      for (std::size_t k = 0; k < n; ++k) s += double(m[i * n + k]) * m[j * n + k];
      const float a = float(s / double(n) + (i == j ? 1.0 + double(i) : 0.0));
      spd[i * n + j] = a;
      rows.push_back(std::int64_t(i));
      cols.push_back(std::int64_t(j));
      values.push_back(double(a));
    }
  }
  csr = linalg::Csr::fromTriplets(n, n, rows, cols, values);
  const linalg::DenseMatrix A(n, n, spd, "dense");
  const solvers::JacobiPreconditioner M(A, stream::Layout::forSize(n));
  const auto rhs = randomRhs(n, 11);
  DoubleFloatVector b(n, "b"), x(n, "x");
  b.upload(rhs);
  const auto status =
      solvers::refine(A, b, x, {.tolerance = 1e-12f}, {}, solvers::cgInnerSolve(A, {}, &M));
  INFO(status.message);
  REQUIRE(status.converged());
  REQUIRE(relativeResidual(csr, x.download(), rhs) <= 2e-12);
}

TEST_CASE("Refinement takes any solver of the shared shape as its inner solve", "[gl][solvers][refinement]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t nx = 45, ny = 31;
  const auto A = linalg::StencilMatrix::poisson2D(nx, ny, "poisson");
  const solvers::JacobiPreconditioner M(A, stream::Layout::forSize(nx * ny));
  solvers::ConjugateGradient pcg(A, &M);
  const auto rhs = randomRhs(nx * ny, 9);
  DoubleFloatVector b(nx * ny, "b"), x(nx * ny, "x");
  b.upload(rhs);
  const auto status = solvers::refine(A, b, x, {.tolerance = 1e-11f}, {}, solvers::iterativeInnerSolve(pcg, {}));
  INFO(status.message);
  REQUIRE(status.converged());
  REQUIRE(relativeResidual(linalg::Csr::poisson2D(nx, ny), x.download(), rhs) <= 2e-11);
  REQUIRE(pcg.status().iterations == status.innerIterations.back());
}

TEST_CASE("Refinement reports stagnation below what the defect's precision allows", "[gl][solvers][refinement]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t nx = 31, ny = 29;
  const auto A = linalg::StencilMatrix::poisson2D(nx, ny, "poisson");
  DoubleFloatVector b(nx * ny, "b"), x(nx * ny, "x");
  b.upload(randomRhs(nx * ny, 3));
  const auto status =
      solvers::refine(A, b, x, {.tolerance = 1e-18f}, {.maxOuterSteps = 40}, solvers::cgInnerSolve(A, {}));
  INFO(status.message);
  REQUIRE(status.outcome == Outcome::Stagnated);
  REQUIRE_THAT(status.message, Catch::Contains("stagnated at relative residual"));
  REQUIRE(status.relativeResidual < 1e-11);  // it got as far as the pairs allow first
  REQUIRE(status.outerSteps() < 40);
}

TEST_CASE("Refinement with the defect in double on the host reaches 1e-10 on a matrix float cannot hold", "[gl][solvers][refinement]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const std::size_t n : {std::size_t(1), std::size_t(37), std::size_t(263)}) {
    INFO(n << " unknowns");
    // Entries with all 53 bits used: the GPU gets them rounded to float, the host defect
    // uses them exactly.
    const linalg::Csr exact = test::matrixFloatCannotHold(n);
    const linalg::SegmentMatrix A(exact, "rounded");
    const solvers::JacobiPreconditioner M(A, stream::Layout::forSize(n));
    const auto rhs = randomRhs(n, 17 + n);
    std::vector<double> x(n, 0.0);
    const solvers::DefectCorrection host = test::hostDefect(exact, rhs, x);
    const auto status = solvers::refine(stream::Layout::forSize(n), host, {.tolerance = 1e-10f}, {},
                                        solvers::cgInnerSolve(A, {.maxIterations = 5000}, &M));
    INFO(status.message);
    REQUIRE(status.converged());
    REQUIRE(relativeResidual(exact, x, rhs) <= 1e-10);
    // Float CG alone, on the rounded matrix, stays orders of magnitude above that.
    if (n > 1) {
      stream::Vector bf(n, "bf"), xf(n, "xf");
      bf.upload(std::vector<float>(rhs.begin(), rhs.end()));
      solvers::cg(A, bf, xf, {.tolerance = 1e-7f, .maxIterations = 5000}, &M);
      REQUIRE(test::trueRelativeResidual(exact, xf.download(), rhs) > 1e-8);
    }
  }
}

TEST_CASE("Refinement undoes a correction that raises the residual", "[gl][solvers][refinement]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t nx = 23, ny = 17, n = nx * ny;
  const auto A = linalg::StencilMatrix::poisson2D(nx, ny, "poisson");
  const auto rhs = randomRhs(n, 21);
  DoubleFloatVector b(n, "b"), x(n, "x");
  b.upload(rhs);
  const auto start = randomRhs(n, 22);
  x.upload(start);
  // An inner solve that answers with a correction pointing the wrong way, as float CG can
  // after a breakdown on a nearly singular system.
  const solvers::InnerSolve wrongWay = [](const stream::Vector& r, stream::Vector& c, double) {
    linalg::copy(r, c);
    linalg::scale(-50.0f, c);
    solvers::SolverStatus s;
    s.iterations = 3;
    s.outcome = Outcome::MaxIterations;
    s.message = "made up";
    return s;
  };
  const auto status = solvers::refine(A, b, x, {.tolerance = 1e-10f}, {}, wrongWay);
  INFO(status.message);
  REQUIRE(status.outcome == Outcome::Stagnated);
  REQUIRE_THAT(status.message, Catch::Contains("was undone") && Catch::Contains("made up"));
  REQUIRE(status.outerSteps() == 1);
  const auto after = x.download();
  // x + c - c in double-float arithmetic: the start again, to the pairs' precision.
  for (std::size_t i = 0; i < n; ++i) REQUIRE(std::abs(after[i] - start[i]) <= 1e-12 * (1.0 + std::abs(start[i])));
  REQUIRE(status.residualHistory.front() == Approx(status.residualHistory.back()).epsilon(1e-6));
}

TEST_CASE("Refinement reaches 1e-10 where float PCG stalls, on every matrix type", "[gl][solvers][refinement]") {
  TEXSTREAM_FOR_EACH_BACKEND();
#ifdef TEXSTREAM_WEB_TEST_SIZES
  const std::size_t nx = 23, ny = 19, n = nx * ny;  // software WebGL: a smaller grid (same behaviour)
#else
  const std::size_t nx = 37, ny = 29, n = nx * ny;
#endif
  const linalg::Csr csr = contrastDiffusion(nx, ny);
  const auto rhs = randomRhs(n, 31);
  const auto matrices = test::everyMatrixType(csr, nx, ny);
  for (const auto& [name, A] : matrices) {
    INFO(name);
    const solvers::JacobiPreconditioner M(*A, stream::Layout::forSize(n));
    // Float PCG alone, asked for 1e-10, ends far above it in the true residual.
    stream::Vector bf(n, "bf"), xf(n, "xf");
    bf.upload(std::vector<float>(rhs.begin(), rhs.end()));
    solvers::cg(*A, bf, xf, {.tolerance = 1e-10f, .maxIterations = 4000}, &M);
    const double single = test::trueRelativeResidual(csr, xf.download(), rhs);
    INFO("float PCG: true residual " << single);
    REQUIRE(single > 1e-8);
    DoubleFloatVector b(n, "b"), x(n, "x");
    b.upload(rhs);
    const auto status =
        solvers::refine(*A, b, x, {.tolerance = 1e-10f}, {}, solvers::cgInnerSolve(*A, {.maxIterations = 4000}, &M));
    INFO(status.message);
    REQUIRE(status.converged());
    REQUIRE(relativeResidual(csr, x.download(), rhs) <= 2e-10);
  }
}

TEST_CASE("Refinement names bad options, operators without the kernel and zero right-hand sides", "[gl][solvers][refinement]") {
  test::context();
  const auto A = linalg::StencilMatrix::poisson2D(5, 4, "P");
  DoubleFloatVector b(20, "b"), x(20, "x");
  b.upload(randomRhs(20, 1));
  const auto inner = solvers::cgInnerSolve(A, {});
  REQUIRE_THROWS_AS(solvers::refine(A, b, x, {.tolerance = 0.0f}, {}, inner), std::invalid_argument);
  REQUIRE_THROWS_AS(solvers::refine(A, b, x, {.tolerance = 1e-8f}, {.maxOuterSteps = 0}, inner), std::invalid_argument);
  REQUIRE_THROWS_AS(solvers::refine(A, b, x, {}, {.minimumReduction = 1.5}, inner), std::invalid_argument);
  REQUIRE_THROWS_AS(solvers::refine(A, b, x, {}, {.innerTolerance = 0.0}, inner), std::invalid_argument);
  REQUIRE_THROWS_AS(solvers::refine(A, b, x, {}, {}, solvers::InnerSolve{}), std::invalid_argument);
  REQUIRE_THROWS_WITH(solvers::refine(stream::Layout::forSize(20), solvers::DefectCorrection{}, {}, {}, inner),
                      Catch::Contains("lacks one of its three calls"));
  const ForwardingOperator forwarding(A);
  REQUIRE_THROWS_WITH(solvers::refine(forwarding, b, x, {}, {}, inner),
                      Catch::Contains("forwarding") && Catch::Contains("no double-float residual"));
  DoubleFloatVector zero(20, "zero");
  x.upload(randomRhs(20, 2));
  const auto status = solvers::refine(A, zero, x, {}, {}, inner);
  REQUIRE(status.converged());
  for (double v : x.download()) REQUIRE(v == 0.0);
}
