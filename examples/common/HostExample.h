#pragma once
// What the host examples share: the problem each solves with texstream, -Δ u = f on an
// nx x ny grid (Dirichlet, h = 1, the 5-point matrix of StencilMatrix::poisson2D), checked
// by its true residual on the CPU in double; and a verdict line per check.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace example {

struct Poisson {
  std::size_t nx, ny;
  std::vector<float> f;  // a smooth bump, `scale` high, so that each context's answer differs

  Poisson(std::size_t nx_, std::size_t ny_, float scale) : nx(nx_), ny(ny_), f(nx_ * ny_) {
    const double pi = 3.14159265358979323846;
    for (std::size_t j = 0; j < ny; ++j)
      for (std::size_t i = 0; i < nx; ++i)
        f[j * nx + i] = scale * float(0.25 + std::sin(pi * double(i + 1) / double(nx + 1)) *
                                                 std::sin(pi * double(j + 1) / double(ny + 1)));
  }
  std::size_t size() const { return nx * ny; }

  /// ||f - A u|| / ||f||.
  double residual(const std::vector<float>& u) const {
    auto at = [&](long i, long j) {
      return i < 0 || j < 0 || i >= long(nx) || j >= long(ny) ? 0.0 : double(u[std::size_t(j) * nx + std::size_t(i)]);
    };
    double r2 = 0, f2 = 0;
    for (std::size_t j = 0; j < ny; ++j) {
      for (std::size_t i = 0; i < nx; ++i) {
        const double Au = 4 * at(long(i), long(j)) - at(long(i) - 1, long(j)) - at(long(i) + 1, long(j)) -
                          at(long(i), long(j) - 1) - at(long(i), long(j) + 1);
        const double r = double(f[j * nx + i]) - Au, fi = double(f[j * nx + i]);
        r2 += r * r;
        f2 += fi * fi;
      }
    }
    return std::sqrt(r2 / f2);
  }
};

/// Counts failed checks; each check prints one line.
struct Checks {
  const char* program;
  int failures = 0;
  bool operator()(bool ok, const std::string& what) {
    std::printf("%s: %s: %s\n", program, ok ? "ok" : "FAIL", what.c_str());
    std::fflush(stdout);
    failures += ok ? 0 : 1;
    return ok;
  }
  int exitCode() const {
    std::printf("%s: %s\n", program, failures == 0 ? "PASS" : "FAIL");
    return failures == 0 ? 0 : 1;
  }
};

}  // namespace example
