// Tests src/linalg/VectorOps.*: every operation against double references on random data,
// both backends, awkward sizes, aliasing, GPU-Scalar coefficients, zero padding and errors.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <limits>

using namespace texstream;
using linalg::Coefficient;
using stream::Scalar;
using stream::Vector;

namespace {

constexpr double kTol = 2e-6;  // a few float roundings, relative to the result's scale

std::vector<double> combination(double a, const std::vector<float>& x, double b, const std::vector<float>& y) {
  std::vector<double> z(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) z[i] = a * x[i] + b * y[i];
  return z;
}

}  // namespace

TEST_CASE("copy, fill, scale, axpy, xpay, axpby and linearCombination match double references", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : test::awkwardSizes()) {
    INFO("n = " << n);
    const auto xs = test::randomFloats(n, 3 * n + 1), ys = test::randomFloats(n, 3 * n + 2);
    const float a = -1.75f, b = 0.625f;
    Vector x(n, "x"), y(n, "y"), z(n, "z");
    auto reset = [&] {
      x.upload(xs);
      y.upload(ys);
      z.upload(test::randomFloats(n, 3 * n + 3));  // poison: every op must overwrite
    };

    reset();
    linalg::copy(x, z);
    REQUIRE(test::maxRelativeError(z.download(), test::toDouble(xs)) == 0.0);

    reset();
    linalg::fill(z, 2.5f);
    REQUIRE(test::maxRelativeError(z.download(), std::vector<double>(n, 2.5)) == 0.0);
    REQUIRE(test::paddingIsZero(z));

    reset();
    linalg::scale(a, y);
    REQUIRE(test::maxRelativeError(y.download(), combination(0, xs, a, ys)) <= kTol);

    reset();
    linalg::axpy(a, x, y);
    REQUIRE(test::maxRelativeError(y.download(), combination(a, xs, 1, ys)) <= kTol);

    reset();
    linalg::xpay(x, a, y);
    REQUIRE(test::maxRelativeError(y.download(), combination(1, xs, a, ys)) <= kTol);

    reset();
    linalg::axpby(a, x, b, y);
    REQUIRE(test::maxRelativeError(y.download(), combination(a, xs, b, ys)) <= kTol);

    reset();
    linalg::linearCombination(a, x, b, y, z);
    REQUIRE(test::maxRelativeError(z.download(), combination(a, xs, b, ys)) <= kTol);
    REQUIRE(test::maxRelativeError(x.download(), test::toDouble(xs)) == 0.0);  // inputs untouched
    REQUIRE(test::maxRelativeError(y.download(), test::toDouble(ys)) == 0.0);
    REQUIRE(test::paddingIsZero(z));
  }
}

TEST_CASE("multiply and divide match double references and keep the padding zero", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : test::awkwardSizes()) {
    INFO("n = " << n);
    const auto xs = test::randomFloats(n, 5 * n + 1), ys = test::randomFloats(n, 5 * n + 2, 0.5f, 2.0f);
    Vector x(n, "x"), y(n, "y"), z(n, "z");
    x.upload(xs);
    y.upload(ys);
    std::vector<double> prod(n), quot(n);
    for (std::size_t i = 0; i < n; ++i) {
      prod[i] = double(xs[i]) * ys[i];
      quot[i] = double(xs[i]) / ys[i];
    }
    linalg::multiply(x, y, z);
    REQUIRE(test::maxRelativeError(z.download(), prod) <= kTol);
    REQUIRE(test::paddingIsZero(z));
    linalg::divide(x, y, z);
    REQUIRE(test::maxRelativeError(z.download(), quot) <= kTol);
    REQUIRE(test::paddingIsZero(z));  // 0 / 0 in the padding must not leave NaN there
    linalg::divide(x, y, x);          // in place
    REQUIRE(test::maxRelativeError(x.download(), quot) <= kTol);
    REQUIRE(test::paddingIsZero(x));
  }
}

TEST_CASE("vector ops with aliased operands", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : {std::size_t(1), std::size_t(97), std::size_t(4097)}) {
    INFO("n = " << n);
    const auto xs = test::randomFloats(n, 7 * n + 1), ys = test::randomFloats(n, 7 * n + 2);
    Vector x(n, "x"), y(n, "y");
    x.upload(xs);
    y.upload(ys);
    linalg::axpy(0.5f, y, y);  // y = 0.5 y + y
    REQUIRE(test::maxRelativeError(y.download(), combination(0, xs, 1.5, ys)) <= kTol);
    y.upload(ys);
    linalg::xpay(y, -3.0f, y);  // y = y - 3 y
    REQUIRE(test::maxRelativeError(y.download(), combination(0, xs, -2.0, ys)) <= kTol);
    y.upload(ys);
    linalg::linearCombination(2.0f, x, -1.0f, y, x);  // z aliases x
    REQUIRE(test::maxRelativeError(x.download(), combination(2, xs, -1, ys)) <= kTol);
    x.upload(xs);
    linalg::linearCombination(2.0f, x, -1.0f, y, y);  // z aliases y
    REQUIRE(test::maxRelativeError(y.download(), combination(2, xs, -1, ys)) <= kTol);
    y.upload(ys);
    linalg::multiply(y, y, y);
    std::vector<double> squares(n);
    for (std::size_t i = 0; i < n; ++i) squares[i] = double(ys[i]) * ys[i];
    REQUIRE(test::maxRelativeError(y.download(), squares) <= kTol);
    y.upload(ys);
    linalg::axpby(2.0f, y, 3.0f, y);  // y = 2 y + 3 y
    REQUIRE(test::maxRelativeError(y.download(), combination(0, xs, 5.0, ys)) <= kTol);
    y.upload(ys);
    linalg::scale(-0.25f, y);
    REQUIRE(test::maxRelativeError(y.download(), combination(0, xs, -0.25, ys)) <= kTol);
    y.upload(ys);
    linalg::divide(x, y, y);  // z aliases y
    std::vector<double> quotients(n);
    for (std::size_t i = 0; i < n; ++i) quotients[i] = double(xs[i]) / ys[i];
    REQUIRE(test::maxRelativeError(y.download(), quotients) <= kTol);
    y.upload(ys);
    linalg::multiply(x, y, x);  // z aliases x
    std::vector<double> products(n);
    for (std::size_t i = 0; i < n; ++i) products[i] = double(xs[i]) * ys[i];
    REQUIRE(test::maxRelativeError(x.download(), products) <= kTol);
    x.upload(xs);
    linalg::copy(x, x);  // a no-op, not an error
    REQUIRE(test::maxRelativeError(x.download(), test::toDouble(xs)) == 0.0);
  }
}

TEST_CASE("GPU Scalars as coefficients: plain, scaled, negated and reciprocal", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = 1000;
  const auto xs = test::randomFloats(n, 91), ys = test::randomFloats(n, 92);
  Vector x(n, "x"), y(n, "y");
  Scalar alpha("alpha"), beta("beta");
  alpha.write(2.5f);
  beta.write(-0.4f);
  auto reset = [&] {
    x.upload(xs);
    y.upload(ys);
  };

  reset();
  linalg::axpy(alpha, x, y);
  REQUIRE(test::maxRelativeError(y.download(), combination(2.5, xs, 1, ys)) <= kTol);
  reset();
  linalg::axpy(-alpha, x, y);
  REQUIRE(test::maxRelativeError(y.download(), combination(-2.5, xs, 1, ys)) <= kTol);
  reset();
  linalg::axpy(3.0f * alpha, x, y);
  REQUIRE(test::maxRelativeError(y.download(), combination(7.5, xs, 1, ys)) <= kTol);
  reset();
  linalg::axpy(1.0f / alpha, x, y);
  REQUIRE(test::maxRelativeError(y.download(), combination(0.4, xs, 1, ys)) <= kTol);
  reset();
  linalg::xpay(x, Coefficient(-2.0f, beta, true), y);  // -2 / beta = 5
  REQUIRE(test::maxRelativeError(y.download(), combination(1, xs, 5, ys)) <= kTol);
  reset();
  linalg::axpby(alpha, x, beta, y);
  REQUIRE(test::maxRelativeError(y.download(), combination(2.5, xs, -0.4, ys)) <= kTol);
  reset();
  linalg::scale(1.0f / beta, y);
  REQUIRE(test::maxRelativeError(y.download(), combination(0, xs, -2.5, ys)) <= kTol);
  linalg::fill(y, alpha);
  REQUIRE(test::maxRelativeError(y.download(), std::vector<double>(n, 2.5)) == 0.0);
  REQUIRE(test::paddingIsZero(y));

  // Writing the scalar changes later results with no other change: it is read on the GPU.
  alpha.write(-1.0f);
  reset();
  linalg::axpy(alpha, x, y);
  REQUIRE(test::maxRelativeError(y.download(), combination(-1, xs, 1, ys)) <= kTol);
}

TEST_CASE("dot, norm and maxAbs match double references", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : test::awkwardSizes()) {
    INFO("n = " << n);
    const auto xs = test::randomFloats(n, 11 * n + 1), ys = test::randomFloats(n, 11 * n + 2);
    Vector x(n, "x"), y(n, "y");
    x.upload(xs);
    y.upload(ys);
    double d = 0, scale = 0, q = 0, m = 0;
    for (std::size_t i = 0; i < n; ++i) {
      d += double(xs[i]) * ys[i];
      scale += std::abs(double(xs[i]) * ys[i]);
      q += double(xs[i]) * xs[i];
      m = std::max(m, std::abs(double(xs[i])));
    }
    Scalar out("out", -99.0f);
    linalg::dot(x, y, out);
    REQUIRE(std::abs(out.read() - d) <= 1e-5 * scale);
    REQUIRE(std::abs(linalg::dot(x, y) - d) <= 1e-5 * scale);
    linalg::norm(x, out);
    REQUIRE(out.read() == Approx(std::sqrt(q)).epsilon(1e-5));
    REQUIRE(linalg::norm(x) == Approx(std::sqrt(q)).epsilon(1e-5));
    linalg::maxAbs(x, out);
    REQUIRE(out.read() == float(m));
  }
}

TEST_CASE("an infinite coefficient leaves the padding zero", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = 97;  // 25 texels in 5x5: 3 padded channels and texels
  Vector y(n, "y");
  y.upload(test::randomFloats(n, 5));
  linalg::scale(std::numeric_limits<float>::infinity(), y);
  std::vector<float> texels(y.layout().paddedSize());
  y.texture().download(texels.data());
  for (std::size_t i = 0; i < n; ++i) REQUIRE(std::isinf(texels[i]));
  for (std::size_t i = n; i < texels.size(); ++i) REQUIRE(texels[i] == 0.0f);
}

TEST_CASE("vector ops reject mismatched and empty vectors naming them", "[gl][linalg]") {
  test::context();
  Vector x(10, "vx"), y(12, "vy"), z(10, "vz"), empty;
  Scalar out("out");
  REQUIRE_THROWS_WITH(linalg::axpy(1.0f, x, y),
                      Catch::Contains("linalg::axpy") && Catch::Contains("\"vx\"") && Catch::Contains("\"vy\""));
  REQUIRE_THROWS_WITH(linalg::copy(x, y), Catch::Contains("linalg::copy") && Catch::Contains("n=12"));
  REQUIRE_THROWS_WITH(linalg::xpay(x, 1.0f, y), Catch::Contains("linalg::xpay"));
  REQUIRE_THROWS_WITH(linalg::axpby(1.0f, x, 2.0f, y), Catch::Contains("linalg::axpby"));
  REQUIRE_THROWS_WITH(linalg::linearCombination(1.0f, x, 1.0f, z, y),
                      Catch::Contains("linalg::linearCombination") && Catch::Contains("\"vy\""));
  REQUIRE_THROWS_WITH(linalg::multiply(x, y, z), Catch::Contains("linalg::multiply"));
  REQUIRE_THROWS_WITH(linalg::divide(x, z, y), Catch::Contains("linalg::divide") && Catch::Contains("\"vy\""));
  REQUIRE_THROWS_WITH(linalg::dot(x, y, out), Catch::Contains("linalg::dot"));
  REQUIRE_THROWS_WITH(linalg::fill(empty, 1.0f), Catch::Contains("linalg::fill") && Catch::Contains("empty"));
  REQUIRE_THROWS_WITH(linalg::scale(2.0f, empty), Catch::Contains("linalg::scale") && Catch::Contains("empty"));
  REQUIRE_THROWS_WITH(linalg::norm(empty, out), Catch::Contains("linalg::norm"));
  REQUIRE_THROWS_WITH(linalg::axpy(1.0f, empty, x), Catch::Contains("linalg::axpy") && Catch::Contains("empty"));
}
