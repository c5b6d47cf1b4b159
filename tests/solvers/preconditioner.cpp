// Tests src/solvers/Preconditioner.* and JacobiPreconditioner.*: z = M^-1 r against the
// CPU, the zero-diagonal error, and PCG through the fused and the generic paths.
#include <catch2/catch.hpp>

#include "solvers/Reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/stream/Vector.h>

#include <cmath>

using namespace texstream;
using solvers::CgOptions;
using solvers::SolverStatus;

namespace {

stream::Vector makeVector(const std::vector<float>& values, const char* name) {
  stream::Vector v(values.size(), name);
  v.upload(values);
  return v;
}

/// Jacobi through the generic Preconditioner path: cg() cannot fuse it, so it runs
/// apply() as its own pass each iteration.
class OpaqueJacobi : public solvers::Preconditioner {
 public:
  explicit OpaqueJacobi(const linalg::LinearOperator& A) : m_jacobi(A) {}
  void apply(const stream::Vector& r, stream::Vector& z) const override {
    ++applications;
    m_jacobi.apply(r, z);
  }
  std::string name() const override { return "opaque jacobi"; }
  mutable int applications = 0;

 private:
  solvers::JacobiPreconditioner m_jacobi;
};

}  // namespace

TEST_CASE("JacobiPreconditioner: z = r / diag(A)", "[gl][solvers][preconditioner]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = GENERATE(1, 2, 5, 97, 1000, 4097);
  INFO("n = " << n);
  // Diagonal entries of both signs, away from zero; one off-diagonal so A is not diagonal.
  std::vector<float> diag = test::randomFloats(n, 3 + n, 0.5f, 4.0f);
  const std::vector<float> sign = test::randomFloats(n, 5 + n);
  for (std::size_t i = 0; i < n; ++i) diag[i] *= sign[i] < 0 ? -1.0f : 1.0f;
  std::vector<std::vector<float>> diagonals{diag};
  std::vector<int> offsets{0};
  if (n > 1) {
    offsets.push_back(1);
    diagonals.push_back(test::randomFloats(n, 7 + n));
  }
  const linalg::BandedMatrix A(n, offsets, diagonals, "A");
  const solvers::JacobiPreconditioner M(A);
  CHECK(M.name() == "jacobi");
  CHECK_FALSE(M.isIdentity());
  const std::vector<float> rHost = test::randomFloats(n, 11 + n);
  stream::Vector r = makeVector(rHost, "r");
  stream::Vector z(n, "z");
  M.apply(r, z);
  std::vector<double> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = double(rHost[i]) / double(diag[i]);
  CHECK(test::maxRelativeError(z.download(), expected) <= 1e-6);
  CHECK(test::maxRelativeError(M.inverseDiagonal()->download(), [&] {
          std::vector<double> inv(n);
          for (std::size_t i = 0; i < n; ++i) inv[i] = 1.0 / double(diag[i]);
          return inv;
        }()) <= 1e-7);
}

TEST_CASE("JacobiPreconditioner names the row of a zero diagonal entry", "[gl][solvers][preconditioner]") {
  test::context();
  std::vector<float> diag{3, 1, 4, 1, 5, 9, 2, 6};
  const std::size_t row = GENERATE(0, 5, 7);
  diag[row] = 0.0f;
  const linalg::BandedMatrix A(8, {0}, {diag}, "pi digits");
  CHECK_THROWS_AS(solvers::JacobiPreconditioner(A), gl::Error);
  CHECK_THROWS_WITH(solvers::JacobiPreconditioner(A),
                    Catch::Contains("pi digits") && Catch::Contains("row " + std::to_string(row)));
  const auto rect = linalg::DenseMatrix(2, 3, {1, 2, 3, 4, 5, 6}, "rect");
  CHECK_THROWS_WITH(solvers::JacobiPreconditioner(rect), Catch::Contains("rect") && Catch::Contains("square"));
  const linalg::BandedMatrix ok(8, {0}, {{3, 1, 4, 1, 5, 9, 2, 6}}, "ok");
  const solvers::JacobiPreconditioner M(ok);
  stream::Vector r(8, "r"), z9(9, "z9");
  CHECK_THROWS_AS(M.apply(r, z9), gl::Error);
}

TEST_CASE("IdentityPreconditioner copies and makes cg run plain CG", "[gl][solvers][preconditioner]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const solvers::IdentityPreconditioner I;
  CHECK(I.isIdentity());
  const std::vector<float> rHost = test::randomFloats(97, 13);
  stream::Vector r = makeVector(rHost, "r");
  stream::Vector z(97, "z");
  I.apply(r, z);
  CHECK(z.download() == rHost);

  const auto A = linalg::StencilMatrix::poisson2D(15, 14, "poisson2D");
  stream::Vector b = makeVector(test::randomFloats(A.rows(), 17), "b");
  stream::Vector x1(A.rows(), "x1"), x2(A.rows(), "x2");
  CgOptions opts;
  opts.checkEvery = 1;
  const SolverStatus plain = solvers::cg(A, b, x1, opts);
  const SolverStatus withI = solvers::cg(A, b, x2, opts, &I);
  REQUIRE(plain.converged());
  REQUIRE(withI.converged());
  CHECK(plain.iterations == withI.iterations);
  CHECK(x1.download() == x2.download());
}

TEST_CASE("pcg: the fused Jacobi update and a generic preconditioner agree", "[gl][solvers][preconditioner]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // A variable-coefficient 2D operator: S L S with S = diag(1 + 3 u), u in [0, 1].
  const std::size_t nx = 21, ny = 18, n = nx * ny;
  const std::vector<float> u = test::randomFloats(n, 19, 0.0f, 1.0f);
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = 1.0 + 3.0 * u[i];
  const linalg::Csr csr = test::scaledSymmetric(linalg::Csr::poisson2D(nx, ny), s);
  const auto A = linalg::BandedMatrix::fromCsr(csr, "scaled Laplacian");
  const std::vector<float> bHost = test::randomFloats(n, 23);
  stream::Vector b = makeVector(bHost, "b");
  stream::Vector xFused(n, "xFused"), xGeneric(n, "xGeneric");
  CgOptions opts;
  opts.checkEvery = 1;
  const solvers::JacobiPreconditioner jacobi(A);
  const OpaqueJacobi opaque(A);
  const SolverStatus fused = solvers::cg(A, b, xFused, opts, &jacobi);
  const SolverStatus generic = solvers::cg(A, b, xGeneric, opts, &opaque);
  INFO(fused.message << " / " << generic.message);
  REQUIRE(fused.converged());
  REQUIRE(generic.converged());
  CHECK(std::abs(fused.iterations - generic.iterations) <= 1);
  // The generic path applies M once at set-up, once per iteration and once per restart
  // from the true residual.
  CHECK(opaque.applications == generic.iterations + 1 + generic.restarts);
  const std::vector<double> reference = test::solveReference(csr, test::toDouble(bHost));
  CHECK(test::maxRelativeError(xFused.download(), reference) <= 1e-3);
  CHECK(test::maxRelativeError(xGeneric.download(), reference) <= 1e-3);
  // A reported convergence holds for the true residual too, within the 2x at which the
  // solve restarts from it (evaluated here in double).
  for (const stream::Vector* x : {&xFused, &xGeneric}) {
    const std::vector<double> Ax = csr.multiply(test::toDouble(x->download()));
    double rr = 0, bb = 0;
    for (std::size_t i = 0; i < n; ++i) {
      rr += (double(bHost[i]) - Ax[i]) * (double(bHost[i]) - Ax[i]);
      bb += double(bHost[i]) * double(bHost[i]);
    }
    INFO(x->name());
    CHECK(std::sqrt(rr / bb) <= 2.0 * double(opts.tolerance));
  }
}

TEST_CASE("pcg reports breakdown for a preconditioner that is not positive definite", "[gl][solvers][preconditioner]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // A SPD, M = diag with mixed signs: r^T M^-1 r < 0 at once for this r, or p^T A p fine
  // but rho negative later; either way CG's assumptions fail and it must say so.
  const std::size_t n = 64;
  std::vector<float> diag(n, 4.0f);
  for (std::size_t i = 0; i < n; i += 2) diag[i] = -4.0f;
  const linalg::BandedMatrix Mmatrix(n, {0}, {diag}, "indefinite diagonal");
  const solvers::JacobiPreconditioner M(Mmatrix);
  const auto A = linalg::StencilMatrix::poisson2D(8, 8, "poisson2D");
  // r = b with |b_i| larger on the negative entries: r^T M^-1 r < 0.
  std::vector<float> bHost = test::randomFloats(n, 29, 0.1f, 0.2f);
  for (std::size_t i = 0; i < n; i += 2) bHost[i] = 1.0f;
  stream::Vector b = makeVector(bHost, "b");
  stream::Vector x(n, "x");
  const SolverStatus s = solvers::cg(A, b, x, {}, &M);
  INFO(s.message);
  CHECK(s.outcome == solvers::Outcome::Breakdown);
  CHECK(s.iterations == 1);
  CHECK(s.message.find("not positive definite") != std::string::npos);
  for (float v : x.download()) CHECK(v == 0.0f);
}

TEST_CASE("JacobiPreconditioner from a GPU inverse diagonal equals the one read from A", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const auto A = linalg::StencilMatrix::poisson2D(13, 11, "A");
  stream::Vector d(A.rows(), "d"), inv(A.rows(), "inv");
  A.diagonal(d);
  linalg::fill(inv, 1.0f);
  linalg::divide(inv, d, inv);
  const auto M = solvers::JacobiPreconditioner::fromInverseDiagonal(std::move(inv));
  const solvers::JacobiPreconditioner reference(A);
  const auto got = M.inverseDiagonal()->download(), want = reference.inverseDiagonal()->download();
  REQUIRE(got.size() == want.size());
  // GPU division may be a correctly rounded reciprocal or within an ulp of it.
  for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).epsilon(1e-6));
  stream::Vector b(A.rows(), "b"), x(A.rows(), "x");
  b.upload(test::randomFloats(A.rows(), 5));
  const auto s = solvers::cg(A, b, x, {.tolerance = 1e-5f, .maxIterations = 500}, &M);
  REQUIRE(s.converged());
  REQUIRE_THROWS_WITH(solvers::JacobiPreconditioner::fromInverseDiagonal(stream::Vector()), Catch::Contains("empty"));
}
