// Built against the installed texstream package by the "consumer" test, as a user's
// project would be: a headless context, texture vectors, a GPU dot product and a CG solve
// through the umbrella header, each checked on the CPU.
#include <texstream/texstream.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  texstream::HeadlessContext context;
  const std::size_t n = 1001;
  std::vector<float> a(n), b(n);
  double expected = 0;
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = float(i % 7) - 3.0f;
    b[i] = 0.5f + float(i % 5);
    expected += double(a[i]) * b[i];
  }
  texstream::Vector x(n, "x"), y(n, "y");
  x.upload(a);
  y.upload(b);
  const float got = texstream::linalg::dot(x, y);
  std::printf("consumer: dot = %g (expected %g) on %s\n", got, expected, context.description().c_str());
  if (std::abs(got - expected) > 1e-4 * std::abs(expected) + 1e-3) return 1;

  // -Δ u = 1 on a 31 x 17 grid; check the residual on the CPU.
  const std::size_t nx = 31, ny = 17;
  auto A = texstream::StencilMatrix::poisson2D(nx, ny, "A");
  texstream::Vector rhs(nx * ny, "b"), u(nx * ny, "u");
  rhs.upload(std::vector<float>(nx * ny, 1.0f));
  const texstream::SolverStatus s = texstream::cg(A, rhs, u, {.tolerance = 1e-5f, .maxIterations = 500});
  const std::vector<float> sol = u.download();
  double worst = 0;
  for (std::size_t j = 0; j < ny; ++j) {
    for (std::size_t i = 0; i < nx; ++i) {
      auto at = [&](long ii, long jj) {
        return ii < 0 || jj < 0 || ii >= long(nx) || jj >= long(ny) ? 0.0 : double(sol[std::size_t(jj) * nx + std::size_t(ii)]);
      };
      const double Au = 4 * at(long(i), long(j)) - at(long(i) - 1, long(j)) - at(long(i) + 1, long(j)) -
                        at(long(i), long(j) - 1) - at(long(i), long(j) + 1);
      worst = std::max(worst, std::abs(Au - 1.0));
    }
  }
  std::printf("consumer: cg %s after %d iterations, max |Au - b| = %g\n", texstream::solvers::outcomeName(s.outcome),
              s.iterations, worst);
  texstream::shutdown();
  return s.converged() && worst < 1e-3 ? 0 : 1;
}
