// Built against the installed texstream package by the "consumer" test, as a user's
// project would be: a headless context, texture vectors, a GPU dot product and the README's
// example (the lines between the readme markers, which the test finds in README.md), each
// checked on the CPU.
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

// readme:begin
#include <texstream/texstream.h>
#include <glad/gl.h>  // texstream's GL loader, or your own GL header

// -Δ u = 1 on an nx x ny grid, u = 0 around it, by conjugate gradients on the GPU.
texstream::Vector solvePoisson(std::size_t nx, std::size_t ny) {
  auto A = texstream::StencilMatrix::poisson2D(nx, ny, "A");  // the 5-point Laplacian
  texstream::Vector b(nx * ny, "b"), u(nx * ny, "u");         // RGBA32F textures
  b.upload(std::vector<float>(nx * ny, 1.0f));
  auto status = texstream::cg(A, b, u, {.tolerance = 1e-5f, .maxIterations = 500});
  if (!status.converged()) throw std::runtime_error(status.message);
  return u;
}
// readme:end

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

  const std::size_t nx = 31, ny = 17;
  bool ok = true;
  {
    // readme:begin
    // With your OpenGL context current (GLFW, Qt, SDL, EGL; desktop 3.3+ or ES 3.0+):
    texstream::Vector u = solvePoisson(31, 17);
    glBindTexture(GL_TEXTURE_2D, u.texture().id());  // sample u in your own shaders,
    std::vector<float> values = u.download();        // or read it back
    // readme:end

    // A u = 1 on the CPU, and the texture bound is u's.
    double worst = 0;
    for (std::size_t j = 0; j < ny; ++j) {
      for (std::size_t i = 0; i < nx; ++i) {
        auto at = [&](long ii, long jj) {
          return ii < 0 || jj < 0 || ii >= long(nx) || jj >= long(ny)
                     ? 0.0
                     : double(values[std::size_t(jj) * nx + std::size_t(ii)]);
        };
        const double Au = 4 * at(long(i), long(j)) - at(long(i) - 1, long(j)) - at(long(i) + 1, long(j)) -
                          at(long(i), long(j) - 1) - at(long(i), long(j) + 1);
        worst = std::max(worst, std::abs(Au - 1.0));
      }
    }
    GLint bound = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
    std::printf("consumer: README example: max |Au - 1| = %g, bound texture %d (u's: %u)\n", worst, bound,
                u.texture().id());
    ok = worst < 1e-3 && GLuint(bound) == u.texture().id();
    glBindTexture(GL_TEXTURE_2D, 0);
  }
  texstream::shutdown();
  return ok ? 0 : 1;
}
