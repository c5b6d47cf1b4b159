#include "EigenPeers.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>

#include <cstring>
#include <limits>
#include <stdexcept>

namespace texstream::bench::eigen {

namespace {
using SparseMatrix = Eigen::SparseMatrix<float, Eigen::RowMajor, int>;
using VectorF = Eigen::VectorXf;

Eigen::Map<const VectorF> view(std::span<const float> v) { return {v.data(), Eigen::Index(v.size())}; }
}  // namespace

std::string description() {
  return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
         std::to_string(EIGEN_MINOR_VERSION) + ", " + std::to_string(Eigen::nbThreads()) + " thread(s)";
}

Timing copy(std::span<const float> x, std::vector<float>& y, const TimingSpec& spec) {
  y.assign(x.size(), 0.0f);
  const Timing t = timeCpu([&] { std::memcpy(y.data(), x.data(), x.size() * sizeof(float)); }, spec);
  std::fill(y.begin(), y.end(), std::numeric_limits<float>::quiet_NaN());
  std::memcpy(y.data(), x.data(), x.size() * sizeof(float));
  return t;
}

Timing spmv(const linalg::Csr& A, std::span<const float> x, std::vector<float>& y, const TimingSpec& spec) {
  const SparseMatrix M = toEigen<float>(A);
  const auto vx = view(x);
  VectorF vy(M.rows());
  const Timing t = timeCpu([&] { vy.noalias() = M * vx; }, spec);
  vy.setConstant(std::numeric_limits<float>::quiet_NaN());
  vy.noalias() = M * vx;
  y.assign(vy.data(), vy.data() + vy.size());
  return t;
}

Timing cg(const linalg::Csr& A, std::span<const float> b, int iterations, std::vector<float>& x,
          const TimingSpec& spec) {
  const SparseMatrix M = toEigen<float>(A);
  const auto vb = view(b);
  Eigen::ConjugateGradient<SparseMatrix, Eigen::Lower | Eigen::Upper, Eigen::IdentityPreconditioner> solver;
  solver.setMaxIterations(iterations);
  solver.setTolerance(0.0f);
  solver.compute(M);
  VectorF vx(M.rows());
  Timing t = timeCpu([&] { vx = solver.solve(vb); }, spec);
  if (solver.iterations() != iterations)
    throw std::runtime_error("Eigen peer cg: ran " + std::to_string(solver.iterations()) + " iterations, not " +
                             std::to_string(iterations));
  t.ms /= iterations;
  t.wallMs /= iterations;
  vx.setConstant(std::numeric_limits<float>::quiet_NaN());
  vx = solver.solve(vb);
  x.assign(vx.data(), vx.data() + vx.size());
  return t;
}

}  // namespace texstream::bench::eigen
