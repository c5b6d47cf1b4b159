// Built against the installed texstream package by the "consumer" test: a headless
// context, two texture vectors, a dot product on the GPU, checked on the CPU.
#include <texstream/gl/HeadlessContext.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  texstream::gl::HeadlessContext context;
  const std::size_t n = 1001;
  std::vector<float> a(n), b(n);
  double expected = 0;
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = float(i % 7) - 3.0f;
    b[i] = 0.5f + float(i % 5);
    expected += double(a[i]) * b[i];
  }
  texstream::stream::Vector x(n, "x"), y(n, "y");
  x.upload(a);
  y.upload(b);
  texstream::stream::Scalar d("d");
  texstream::stream::dot(x, y, d);
  const float got = d.read();
  std::printf("consumer: dot = %g (expected %g) on %s\n", got, expected, context.description().c_str());
  return std::abs(got - expected) <= 1e-4 * std::abs(expected) + 1e-3 ? 0 : 1;
}
