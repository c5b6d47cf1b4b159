// Tests src/solvers/multigrid/AggregationHierarchy.* and AggregationMultigrid.*: the hierarchy's
// invariants on the CPU (aggregates cover every node, P^T A P symmetric, levels shrink);
// one GPU V-cycle against a double-precision CPU cycle of the same hierarchy at awkward
// sizes, scalar and 2x2-block matrices, segment and BCRS fine levels, both backends; CG
// with it converges in a bounded number of iterations where Jacobi-PCG's grow with the
// size; misuse is refused by name.
#include <catch2/catch.hpp>

#include "solvers/Reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/multigrid/AggregationHierarchy.h>
#include <texstream/solvers/multigrid/AggregationMultigrid.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/multigrid/DenseInverse.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

using namespace texstream;
using solvers::AggregationLevel;

namespace {

/// A 2x2-block SPD matrix like LSCM's normal equations: on an nx x ny grid with random
/// positive edge weights w, the block K w couples neighbours (K = [[2, 0.6], [0.6, 1]]),
/// the diagonal blocks sum them, and nodes of the first column get K added (a Dirichlet
/// side, so that the matrix is definite).
linalg::Csr blockLaplacian(std::size_t nx, std::size_t ny, std::uint64_t seed) {
  const double K[2][2] = {{2.0, 0.6}, {0.6, 1.0}};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> weight(0.2, 2.0);
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  auto block = [&](std::size_t i, std::size_t j, double w) {
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        r.push_back(std::int64_t(2 * i) + a);
        c.push_back(std::int64_t(2 * j) + b);
        v.push_back(w * K[a][b]);
      }
  };
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x) {
      const std::size_t i = y * nx + x;
      if (x == 0) block(i, i, 1.0);
      for (auto [dx, dy] : {std::pair<int, int>{1, 0}, {0, 1}, {1, 1}}) {
        const std::size_t xx = x + std::size_t(dx), yy = y + std::size_t(dy);
        if (xx >= nx || yy >= ny) continue;
        const std::size_t j = yy * nx + xx;
        const double w = weight(rng);
        block(i, j, -w);
        block(j, i, -w);
        block(i, i, w);
        block(j, j, w);
      }
    }
  return linalg::Csr::fromTriplets(2 * nx * ny, 2 * nx * ny, r, c, v);
}

/// blockLaplacian's grid with the plane's similarities as near-null space: (1, 0), (0, 1),
/// (x, y) and (-y, x) per node (LSCM's, AggregationHierarchy.h).
std::vector<std::vector<double>> similarities(std::size_t nx, std::size_t ny) {
  std::vector<std::vector<double>> B(4, std::vector<double>(2 * nx * ny, 0.0));
  for (std::size_t i = 0; i < nx * ny; ++i) {
    const double x = double(i % nx), y = double(i / nx);
    B[0][2 * i] = 1.0;
    B[1][2 * i + 1] = 1.0;
    B[2][2 * i] = x;
    B[2][2 * i + 1] = y;
    B[3][2 * i] = -y;
    B[3][2 * i + 1] = x;
  }
  return B;
}

std::vector<double> diagonalInverse(const linalg::Csr& A) {
  std::vector<double> d = A.diagonal();
  for (double& x : d) x = 1.0 / x;
  return d;
}

/// The V(nu, nu)-cycle of AggregationMultigrid.h in double on the CPU, in user order.
struct ReferenceCycle {
  std::vector<AggregationLevel> levels;
  std::vector<linalg::Csr> restrictions;
  std::vector<std::vector<double>> inverseDiagonals;
  std::vector<double> coarseInverse;
  int nu = 1;

  ReferenceCycle(const linalg::Csr& A, const solvers::AggregationOptions& options, int sweeps) : nu(sweeps) {
    levels = solvers::buildAggregationHierarchy(A, options, "reference");
    if (levels.size() == 1) {  // the preconditioner's two-level form with P = I
      linalg::Csr I = linalg::Csr::fromTriplets(A.rows, A.rows, {}, {}, {});
      std::vector<std::int64_t> idx(A.rows);
      for (std::size_t i = 0; i < A.rows; ++i) idx[i] = std::int64_t(i);
      levels[0].P = linalg::Csr::fromTriplets(A.rows, A.rows, idx, idx, std::vector<double>(A.rows, 1.0));
      levels.push_back({levels[0].A, {}, levels[0].spectralRadius, 0, {}});
    }
    for (std::size_t l = 0; l + 1 < levels.size(); ++l) {
      restrictions.push_back(linalg::transpose(levels[l].P));
      inverseDiagonals.push_back(diagonalInverse(*levels[l].A));
    }
    const linalg::Csr& C = *levels.back().A;
    std::vector<double> dense(C.rows * C.rows, 0.0);
    for (std::size_t i = 0; i < C.rows; ++i)
      for (std::int64_t k = C.rowPtr[i]; k < C.rowPtr[i + 1]; ++k)
        dense[i * C.rows + std::size_t(C.colIdx[std::size_t(k)])] += C.values[std::size_t(k)];
    coarseInverse = *solvers::invertDense(dense, C.rows);
  }

  std::vector<double> cycle(std::size_t l, const std::vector<double>& b) const {
    const std::size_t n = b.size();
    if (l + 1 == levels.size()) {
      std::vector<double> x(n, 0.0);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) x[i] += coarseInverse[i * n + j] * b[j];
      return x;
    }
    const linalg::Csr& A = *levels[l].A;
    const double omega = 4.0 / (3.0 * levels[l].spectralRadius);
    std::vector<double> x(n, 0.0);
    auto sweep = [&] {
      const std::vector<double> ax = A.multiply(x);
      for (std::size_t i = 0; i < n; ++i) x[i] += omega * inverseDiagonals[l][i] * (b[i] - ax[i]);
    };
    for (int s = 0; s < nu; ++s) sweep();
    std::vector<double> r = A.multiply(x);
    for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
    const std::vector<double> e = levels[l].P.multiply(cycle(l + 1, restrictions[l].multiply(r)));
    for (std::size_t i = 0; i < n; ++i) x[i] += e[i];
    for (int s = 0; s < nu; ++s) sweep();
    return x;
  }
};

/// One GPU cycle on user-order r through the matrix's internal order, back in user order.
std::vector<float> gpuCycle(const solvers::AggregationMultigrid& M, const linalg::PermutedMatrix& A,
                            const std::vector<float>& r) {
  stream::Vector user(r.size(), "r"), ri = A.makeInternalVector("ri"), zi = A.makeInternalVector("zi");
  user.upload(r);
  A.toInternal(user, ri);
  M.apply(ri, zi);
  A.toUser(zi, user);
  return user.download();
}

/// rho(D^-1 A) = the largest eigenvalue of D^-1/2 A D^-1/2, dense (Eigen, small A only).
double jacobiSpectralRadius(const linalg::Csr& A) {
  const std::vector<double> dinv = diagonalInverse(A);
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(Eigen::Index(A.rows), Eigen::Index(A.rows));
  for (std::size_t i = 0; i < A.rows; ++i)
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
      const std::size_t j = std::size_t(A.colIdx[std::size_t(k)]);
      S(Eigen::Index(i), Eigen::Index(j)) += A.values[std::size_t(k)] * std::sqrt(dinv[i] * dinv[j]);
    }
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
}

bool symmetric(const linalg::Csr& A, double tolerance) {
  const linalg::Csr T = linalg::transpose(A);
  double scale = 0, worst = 0;
  for (double v : A.values) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < A.rows; ++i) {
    std::vector<double> row(A.cols, 0.0);
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) row[std::size_t(A.colIdx[std::size_t(k)])] += A.values[std::size_t(k)];
    for (std::int64_t k = T.rowPtr[i]; k < T.rowPtr[i + 1]; ++k) row[std::size_t(T.colIdx[std::size_t(k)])] -= T.values[std::size_t(k)];
    for (double d : row) worst = std::max(worst, std::abs(d));
  }
  return worst <= tolerance * scale;
}

}  // namespace

TEST_CASE("Aggregation hierarchy: levels shrink, aggregates cover every node, P^T A P stays symmetric", "[solvers][amg]") {
  for (int blockSize : {1, 2}) {
    INFO("block size " << blockSize);
    const linalg::Csr A = blockSize == 1 ? linalg::Csr::poisson2D(47, 31) : blockLaplacian(29, 23, 5);
    solvers::AggregationOptions options;
    options.blockSize = blockSize;
    options.coarsestSize = 40;
    // Each level is settled in order, the coarsest last, at its final address.
    std::vector<std::pair<const solvers::AggregationLevel*, bool>> settled;
    const auto levels = solvers::buildAggregationHierarchy(
        A, options, "A", nullptr,
        [&](const AggregationLevel* all, std::size_t l, bool coarsest) {
          CHECK(l == settled.size());
          settled.emplace_back(all + l, coarsest);
        });
    REQUIRE(levels.size() >= 3);
    REQUIRE(settled.size() == levels.size());
    for (std::size_t l = 0; l < levels.size(); ++l) {
      CHECK(settled[l].first == &levels[l]);
      CHECK(settled[l].second == (l + 1 == levels.size()));
    }
    // No cap on the levels but the matrix's: the same hierarchy.
    options.maxLevels = std::numeric_limits<int>::max();
    CHECK(solvers::buildAggregationHierarchy(A, options, "A").size() == levels.size());
    for (std::size_t l = 0; l < levels.size(); ++l) {
      INFO("level " << l);
      const AggregationLevel& h = levels[l];
      CHECK(h.A->rows % std::size_t(blockSize) == 0);
      CHECK(symmetric(*h.A, 1e-12));
      // rho(D^-1 A) from Eigen: the estimate must keep the smoother's omega rho < 2
      // (estimate >= 0.75 rho) and not damp needlessly (estimate <= 1.1 rho).
      const double rho = jacobiSpectralRadius(*h.A);
      CHECK(h.spectralRadius >= 0.75 * rho);
      CHECK(h.spectralRadius <= 1.1 * rho);
      if (l + 1 == levels.size()) {
        CHECK(h.P.rows == 0);
        CHECK(h.A->rows <= 40 * 4);
        continue;
      }
      CHECK(h.P.rows == h.A->rows);
      CHECK(h.P.cols == levels[l + 1].A->rows);
      CHECK(levels[l + 1].A->rows * 4 <= h.A->rows * 3);
      CHECK(h.meanAggregate >= 2.0);
      // Every fine unknown is interpolated from some coarse unknown: P has no empty row,
      // and P reproduces per component constants up to the smoothing (P 1_c = (I - w D^-1 A) P0 1_c).
      for (std::size_t i = 0; i < h.P.rows; ++i) CHECK(h.P.rowPtr[i + 1] > h.P.rowPtr[i]);
      // The Galerkin product.
      const linalg::Csr Ac = linalg::multiply(linalg::transpose(h.P), linalg::multiply(*h.A, h.P));
      const std::vector<double> x = test::toDouble(test::randomFloats(Ac.cols, 11 + l));
      const std::vector<double> want = Ac.multiply(x), got = levels[l + 1].A->multiply(x);
      for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-12));
    }
  }
}

TEST_CASE("Aggregation hierarchy with a near-null space: P0 reproduces it, coarse levels carry k unknowns per aggregate",
          "[solvers][amg]") {
  const linalg::Csr A = blockLaplacian(31, 27, 4);
  solvers::AggregationOptions options;
  options.blockSize = 2;
  options.coarsestSize = 40;
  options.nearNullSpace = similarities(31, 27);
  const auto levels = solvers::buildAggregationHierarchy(A, options, "A");
  REQUIRE(levels.size() >= 3);
  for (std::size_t l = 1; l < levels.size(); ++l) {
    INFO("level " << l);
    CHECK(levels[l].A->rows % 4 == 0);
    CHECK(symmetric(*levels[l].A, 1e-12));
    for (double d : levels[l].A->diagonal()) CHECK(d > 0.0);
  }
  // P0 has orthonormal columns whose span holds B: P0 P0^T B = B.
  const linalg::Csr& P0 = levels[0].P0;
  const linalg::Csr P0t = linalg::transpose(P0);
  for (std::size_t j = 0; j < 4; ++j) {
    INFO("near-null vector " << j);
    const std::vector<double>& b = options.nearNullSpace[j];
    const std::vector<double> back = P0.multiply(P0t.multiply(b));
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      worst = std::max(worst, std::abs(back[i] - b[i]));
      scale = std::max(scale, std::abs(b[i]));
    }
    CHECK(worst <= 1e-10 * scale);
  }
}

TEST_CASE("Aggregation hierarchy: a coarse unknown no aggregate can carry gets a unit row and column", "[solvers][amg]") {
  // blockLaplacian's grid and one more node coupled to nothing: an aggregate of its own,
  // whose two rows carry at most two of the four similarities, so two of its coarse
  // unknowns are dropped from every product.
  const std::size_t nx = 13, ny = 11, grid = 2 * nx * ny;
  const linalg::Csr L = blockLaplacian(nx, ny, 9);
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  for (std::size_t i = 0; i < L.rows; ++i)
    for (std::int64_t k = L.rowPtr[i]; k < L.rowPtr[i + 1]; ++k) {
      r.push_back(std::int64_t(i));
      c.push_back(L.colIdx[std::size_t(k)]);
      v.push_back(L.values[std::size_t(k)]);
    }
  for (std::int64_t a = 0; a < 2; ++a)
    for (std::int64_t b = 0; b < 2; ++b) {
      r.push_back(std::int64_t(grid) + a);
      c.push_back(std::int64_t(grid) + b);
      v.push_back(a == b ? 3.0 : 0.5);
    }
  const linalg::Csr A = linalg::Csr::fromTriplets(grid + 2, grid + 2, r, c, v);
  solvers::AggregationOptions options;
  options.blockSize = 2;
  options.coarsestSize = 8;
  options.nearNullSpace = similarities(nx, ny + 1);  // the extra node sits at (0, ny)
  for (auto& b : options.nearNullSpace) b.resize(A.rows);
  const auto levels = solvers::buildAggregationHierarchy(A, options, "A");
  REQUIRE(levels.size() >= 2);
  const linalg::Csr& coarse = *levels[1].A;
  CHECK(symmetric(coarse, 1e-12));
  // The unit rows: diagonal exactly 1, every other entry of the row 0; P's column 0 too.
  std::size_t unitRows = 0;
  const linalg::Csr Pt = linalg::transpose(levels[0].P);
  for (std::size_t i = 0; i < coarse.rows; ++i) {
    double offDiagonal = 0.0, diagonal = 0.0;
    for (std::int64_t k = coarse.rowPtr[i]; k < coarse.rowPtr[i + 1]; ++k) {
      if (std::size_t(coarse.colIdx[std::size_t(k)]) == i) diagonal = coarse.values[std::size_t(k)];
      else offDiagonal = std::max(offDiagonal, std::abs(coarse.values[std::size_t(k)]));
    }
    CHECK(diagonal > 0.0);
    if (diagonal != 1.0 || offDiagonal != 0.0) continue;
    ++unitRows;
    double column = 0.0;
    for (std::int64_t k = Pt.rowPtr[i]; k < Pt.rowPtr[i + 1]; ++k) column = std::max(column, std::abs(Pt.values[std::size_t(k)]));
    CHECK(column == 0.0);
  }
  CHECK(unitRows >= 2);
}

TEST_CASE("Aggregation hierarchy refuses what it cannot coarsen, by name", "[solvers][amg]") {
  solvers::AggregationOptions options;
  auto message = [&](const linalg::Csr& A) {
    try {
      solvers::buildAggregationHierarchy(A, options, "bad");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  linalg::Csr A = linalg::Csr::poisson2D(5, 5);
  options.blockSize = 3;
  CHECK_THAT(message(A), Catch::Contains("bad") && Catch::Contains("blockSize must be 1, 2 or 4"));
  options.blockSize = 2;
  CHECK_THAT(message(A), Catch::Contains("does not divide the 25 unknowns"));
  options.blockSize = 1;
  A.values[0] = -4.0;  // row 0's diagonal
  CHECK_THAT(message(A), Catch::Contains("diagonal entry of row 0") && Catch::Contains("positive definite"));
  A = linalg::Csr::poisson2D(5, 5);
  options.strengthThreshold = 1.5;
  CHECK_THAT(message(A), Catch::Contains("strengthThreshold"));
  options.strengthThreshold = 0.08;
  options.coarsestSize = 0;
  CHECK_THAT(message(A), Catch::Contains("coarsestSize"));
  options.coarsestSize = 10;
  linalg::Csr rectangular = A;
  rectangular.cols = 30;
  CHECK_THAT(message(rectangular), Catch::Contains("square"));
  options.nearNullSpace = {std::vector<double>(25, 1.0), std::vector<double>(24, 1.0)};
  CHECK_THAT(message(A), Catch::Contains("near-null vector 1 has 24 values, the matrix 25 rows"));
  options.nearNullSpace = {std::vector<double>(25, 1.0)};
  options.nearNullSpace[0][3] = std::nan("");
  CHECK_THAT(message(A), Catch::Contains("near-null vector 0 holds a non-finite value"));
  options.nearNullSpace.assign(17, std::vector<double>(25, 1.0));
  CHECK_THAT(message(A), Catch::Contains("17 near-null vectors; at most 16"));
}

TEST_CASE("AggregationMultigrid: one GPU V-cycle equals the double CPU cycle", "[gl][solvers][amg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  struct Case {
    const char* what;
    linalg::Csr A;
    int blockSize;
    std::vector<std::vector<double>> nearNullSpace = {};
  };
  std::vector<Case> cases = {{"1x1 Poisson", linalg::Csr::poisson2D(1, 1), 1},
                             {"7x1 Poisson", linalg::Csr::poisson2D(7, 1), 1},
                             {"2x3 Poisson", linalg::Csr::poisson2D(2, 3), 1},
                             {"61x41 Poisson", linalg::Csr::poisson2D(61, 41), 1},
                             {"13x11x7 Poisson", linalg::Csr::poisson3D(13, 11, 7), 1},
                             {"2-block 37x29", blockLaplacian(37, 29, 3), 2},
                             {"2-block 37x29, similarities", blockLaplacian(37, 29, 3), 2, similarities(37, 29)}};
  for (const int sweeps : {1, 2}) {
    for (const Case& c : cases) {
      INFO(c.what << ", " << sweeps << " sweeps");
      solvers::AggregationMultigridOptions options;
      options.hierarchy.blockSize = c.blockSize;
      options.hierarchy.coarsestSize = 60;
      options.hierarchy.nearNullSpace = c.nearNullSpace;
      options.smoothingSweeps = sweeps;
      const ReferenceCycle reference(c.A, options.hierarchy, sweeps);
      const std::vector<float> r = test::randomFloats(c.A.rows, 100 + c.A.rows);
      const std::vector<double> want = reference.cycle(0, test::toDouble(r));
      std::vector<std::unique_ptr<linalg::PermutedMatrix>> fines;
      fines.push_back(std::make_unique<linalg::SegmentMatrix>(c.A, "A"));
      if (c.blockSize == 2) {
        linalg::BcrsOptions bo;
        bo.blockSize = 2;
        fines.push_back(std::make_unique<linalg::BcrsMatrix>(c.A, "A", bo));
      }
      for (const auto& fine : fines) {
        INFO("fine level " << (dynamic_cast<linalg::BcrsMatrix*>(fine.get()) ? "BCRS 2x2" : "segment"));
        const solvers::AggregationMultigrid M(c.A, *fine, options, "amg");
        CHECK(M.stats().levels == int(reference.levels.size()));
        const std::vector<float> z = gpuCycle(M, *fine, r);
        CHECK(test::maxRelativeError(z, want) < 2e-4);
        // The hierarchy on a second thread while this one uploads and takes the levels as
        // they come (as SystemSolver builds it): the same cycle, bit for bit.
        const solvers::AggregationMultigrid overlapped(
            c.A, [&]() -> const linalg::PermutedMatrix& { return *fine; }, options, "amg");
        CHECK(overlapped.stats().levels == M.stats().levels);
        CHECK(overlapped.stats().operatorComplexity == M.stats().operatorComplexity);
        CHECK(gpuCycle(overlapped, *fine, r) == z);
        // Coarse levels of 2-unknown nodes stored BCRS 2x2 (on the compute backend; LSCM's
        // first coarse level is, by size): the same cycle within float rounding.
        solvers::AggregationMultigridOptions bcrsCoarse = options;
        bcrsCoarse.bcrsCoarseFrom = 0;
        const solvers::AggregationMultigrid B(c.A, *fine, bcrsCoarse, "amg");
        CHECK(test::maxRelativeError(gpuCycle(B, *fine, r), want) < 2e-4);
      }
    }
  }
}

TEST_CASE("AggregationMultigrid: z may be r, and vectors of the wrong layout are refused", "[gl][solvers][amg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const linalg::Csr A = linalg::Csr::poisson2D(23, 19);
  const linalg::SegmentMatrix fine(A, "A");
  const solvers::AggregationMultigrid M(A, fine, {}, "amg");
  stream::Vector user(A.rows, "r"), r = fine.makeInternalVector("ri"), z = fine.makeInternalVector("zi");
  user.upload(test::randomFloats(A.rows, 7));
  fine.toInternal(user, r);
  M.apply(r, z);
  const std::vector<float> separate = z.download();
  M.apply(r, r);
  CHECK(test::maxRelativeError(r.download(), test::toDouble(separate)) == 0.0);
  stream::Vector wrong(A.rows + 1, "wrong");
  CHECK_THROWS_WITH(M.apply(wrong, z), Catch::Contains("amg") && Catch::Contains("wrong") &&
                                           Catch::Contains("internal layout"));
  const linalg::SegmentMatrix other(linalg::Csr::poisson2D(5, 5), "other");
  CHECK_THROWS_WITH(solvers::AggregationMultigrid(A, other, {}, "amg"),
                    Catch::Contains("amg") && Catch::Contains("\"other\" 25x25"));
  solvers::AggregationMultigridOptions options;
  options.smoothingSweeps = 0;
  CHECK_THROWS_WITH(solvers::AggregationMultigrid(A, fine, options, "amg"), Catch::Contains("smoothingSweeps"));
  // The overlapped form: the same checks, and an error of the upload reported before one of
  // the hierarchy (here a matrix that is not positive definite).
  auto upload = [&]() -> const linalg::PermutedMatrix& { return fine; };
  CHECK_THROWS_WITH(solvers::AggregationMultigrid(linalg::Csr::poisson2D(5, 5), upload, {}, "amg"),
                    Catch::Contains("amg") && Catch::Contains("\"A\" 437x437"));
  linalg::Csr indefinite = A;
  for (std::size_t k = 0; k < indefinite.values.size(); ++k) indefinite.values[k] = -indefinite.values[k];
  CHECK_THROWS_WITH(solvers::AggregationMultigrid(indefinite, upload, {}, "amg"), Catch::Contains("positive definite"));
  CHECK_THROWS_WITH(solvers::AggregationMultigrid(
                        indefinite, []() -> const linalg::PermutedMatrix& { throw gl::Error("upload failed"); }, {}, "amg"),
                    "upload failed");
}

TEST_CASE("AggregationMultigrid-PCG: iterations stay bounded as the mesh grows, Jacobi-PCG's do not", "[gl][solvers][amg][long]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::vector<int> multigridIterations, jacobiIterations;
#ifdef TEXSTREAM_WEB_TEST_SIZES
  const std::size_t sides[] = {16, 64};  // software WebGL: Jacobi-PCG's hundreds of iterations cost seconds
#else
  const std::size_t sides[] = {24, 96};
#endif
  for (std::size_t side : sides) {
    INFO(side << " x " << side << " 2-block grid");
    const linalg::Csr A = blockLaplacian(side, side, 9);
    linalg::BcrsOptions bo;
    bo.blockSize = 2;
    const linalg::BcrsMatrix fine(A, "A", bo);
    solvers::AggregationMultigridOptions options;
    options.hierarchy.blockSize = 2;
    const solvers::AggregationMultigrid M(A, fine, options, "amg");
    const std::vector<float> rhs = test::randomFloats(A.rows, side);
    stream::Vector user(A.rows, "b"), b = fine.makeInternalVector("b"), x = fine.makeInternalVector("x");
    user.upload(rhs);
    fine.toInternal(user, b);
    solvers::CgOptions cgOptions;
    cgOptions.tolerance = 1e-6f;
    // The iterations to the recurrence's 1e-6 are what this test compares: the true residual,
    // whose float floor is near 1e-6 on these grids, is checked in double below.
    cgOptions.checkTrueResidual = false;
    cgOptions.maxIterations = 4000;
    const solvers::SolverStatus amg = solvers::cg(fine.internal(), b, x, cgOptions, &M);
    REQUIRE(amg.converged());
    fine.toUser(x, user);
    // Float CG's recurrence drifts from the true residual by about kappa times float's
    // rounding; the true one is checked in double.
    CHECK(test::trueRelativeResidual(A, user.download(), test::toDouble(rhs)) < 1e-4);
    multigridIterations.push_back(amg.iterations);
    x.setZero();
    const solvers::JacobiPreconditioner jacobi(fine.internal(), fine.internalLayout());
    const solvers::SolverStatus plain = solvers::cg(fine.internal(), b, x, cgOptions, &jacobi);
    REQUIRE(plain.converged());
    jacobiIterations.push_back(plain.iterations);
  }
  INFO("multigrid " << multigridIterations[0] << " -> " << multigridIterations[1] << ", Jacobi " << jacobiIterations[0]
                    << " -> " << jacobiIterations[1]);
  CHECK(multigridIterations[1] <= 40);
  CHECK(multigridIterations[1] <= multigridIterations[0] + 8);
  CHECK(jacobiIterations[1] >= 3 * jacobiIterations[0]);
  CHECK(jacobiIterations[1] >= 5 * multigridIterations[1]);
}
