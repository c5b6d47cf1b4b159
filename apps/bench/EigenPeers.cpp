#include "EigenPeers.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace texstream::bench::eigen {

namespace {
using SparseMatrix = Eigen::SparseMatrix<float, Eigen::RowMajor, int>;
using VectorF = Eigen::VectorXf;

Eigen::Map<const VectorF> view(std::span<const float> v) { return {v.data(), Eigen::Index(v.size())}; }

std::string version() {
  return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
         std::to_string(EIGEN_MINOR_VERSION);
}

// The threads icCg gives Eigen: every hardware thread where OpenMP is linked (Eigen runs
// single-threaded without it, whatever setNbThreads says).
int icCgThreads() {
#ifdef EIGEN_HAS_OPENMP
  return int(std::max(1u, std::thread::hardware_concurrency()));
#else
  return 1;
#endif
}

// Eigen's thread count for one scope, the previous count restored on every exit path.
class EigenThreads {
 public:
  explicit EigenThreads(int threads) : m_previous(Eigen::nbThreads()) { Eigen::setNbThreads(threads); }
  ~EigenThreads() { Eigen::setNbThreads(m_previous); }
  EigenThreads(const EigenThreads&) = delete;
  EigenThreads& operator=(const EigenThreads&) = delete;

 private:
  int m_previous;
};

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// timeCpu for solves of up to a second; a longer solve is timed alone, at most three
// times (the first run included) and no more once those runs have taken kLongSolvesMs, so
// that a solve of a minute runs once.
Timing timeSolves(const std::function<void()>& solve, const TimingSpec& spec) {
  constexpr double kLongSolveMs = 1000, kLongSolvesMs = 20000;
  auto t0 = std::chrono::steady_clock::now();
  solve();
  std::vector<double> runs{msSince(t0)};
  if (runs[0] <= kLongSolveMs) return timeCpu(solve, cpuSpec(spec));
  const std::size_t most = std::size_t(std::clamp(spec.batches, 1, 3));
  while (runs.size() < most && std::accumulate(runs.begin(), runs.end(), 0.0) < kLongSolvesMs) {
    t0 = std::chrono::steady_clock::now();
    solve();
    runs.push_back(msSince(t0));
  }
  Timing t;
  t.ms = t.wallMs = median(runs);
  t.reps = 1;
  t.batches = int(runs.size());
  t.method = "clock";
  return t;
}
}  // namespace

std::string description() { return version() + ", " + std::to_string(Eigen::nbThreads()) + " thread(s)"; }

std::string icCgDescription() {
#ifdef EIGEN_HAS_OPENMP
  return version() + ", SpMV on " + std::to_string(icCgThreads()) + " threads (OpenMP), the rest on one";
#else
  return version() + ", 1 thread (built without OpenMP)";
#endif
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

Timing icCg(const linalg::Csr& A, const std::vector<double>& b, double tolerance, int maxIterations,
            std::vector<double>& x, int& iterations, double& setupMs, const TimingSpec& spec) {
  if (A.rows != A.cols || A.rows != b.size())
    throw std::invalid_argument("Eigen peer icCg: A is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) +
                                " and b has " + std::to_string(b.size()) + " entries");
  using Matrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
  const EigenThreads threads(icCgThreads());
  const Matrix M = toEigen<double>(A);
  const Eigen::Map<const Eigen::VectorXd> vb(b.data(), Eigen::Index(b.size()));
  Eigen::ConjugateGradient<Matrix, Eigen::Lower | Eigen::Upper, Eigen::IncompleteCholesky<double>> solver;
  solver.setTolerance(tolerance);
  solver.setMaxIterations(maxIterations);
  const auto start = std::chrono::steady_clock::now();
  solver.compute(M);
  setupMs = msSince(start);
  if (solver.info() != Eigen::Success)
    throw std::runtime_error("Eigen peer icCg: IncompleteCholesky failed (no positive pivots after ten shifts)");
  Eigen::VectorXd vx;
  // solve() starts from x = 0, so the last timed solve leaves a fresh x.
  const Timing t = timeSolves([&] { vx = solver.solve(vb); }, spec);
  iterations = int(solver.iterations());
  x.assign(vx.data(), vx.data() + vx.size());
  return t;
}

}  // namespace texstream::bench::eigen
