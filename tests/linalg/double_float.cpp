// Tests src/linalg/DoubleFloatVector.* and LinearOperator::residualInDoubleFloat: pairs of
// floats hold about 48 bits (upload/download, x += c), and r = b - A x is formed in
// double-float arithmetic for every matrix type that has the kernel. The residual tests put
// x within 1e-9 of A's solution, so r is about 1e-9 of the product's scale: a float product
// (error about 1e-7 of the scale) fails them, the double-float kernel passes.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/linalg/DoubleFloatDot.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <limits>
#include <functional>
#include <random>

using namespace texstream;
using linalg::DoubleFloatVector;
using stream::Vector;

namespace {

/// n doubles uniform in [-1, 1] with all 53 bits random.
std::vector<double> randomDoubles(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

/// Largest |a - b| over the elements.
double maxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

/// A product y = A x given as a callable over doubles, for the reference residual.
using DoubleProduct = std::function<std::vector<double>(const std::vector<double>&)>;

/// b = A x* in double, x = x* + 1e-9 noise; checks the GPU's r = b - A x against the
/// double residual of the pair values the GPU holds.
void checkResidual(const linalg::LinearOperator& a, const DoubleProduct& product, const DoubleProduct& absProduct,
                   std::uint64_t seed) {
  const std::size_t n = a.cols();
  const auto xStar = randomDoubles(n, seed);
  auto xNear = xStar;
  const auto noise = randomDoubles(n, seed + 1);
  for (std::size_t i = 0; i < n; ++i) xNear[i] += 1e-9 * noise[i];
  DoubleFloatVector x(n, "x"), b(a.rows(), "b");
  x.upload(xNear);
  b.upload(product(xStar));
  const auto xHeld = x.download(), bHeld = b.download();
  const auto ax = product(xHeld);
  std::vector<double> reference(a.rows());
  for (std::size_t i = 0; i < reference.size(); ++i) reference[i] = bHeld[i] - ax[i];
  std::vector<double> absX(n);
  for (std::size_t i = 0; i < n; ++i) absX[i] = std::abs(xHeld[i]);
  const auto scaleV = absProduct(absX);
  double scale = 1e-30, residualSize = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    scale = std::max(scale, scaleV[i] + std::abs(bHeld[i]));
    residualSize = std::max(residualSize, std::abs(reference[i]));
  }
  Vector r(a.rows(), "r");
  a.residualInDoubleFloat(b, x, r);
  const auto got = test::toDouble(r.download());
  INFO("n = " << n << ", residual " << residualSize << " of scale " << scale);
  REQUIRE(maxDifference(got, reference) <= 1e-6 * residualSize + 1e-12 * scale);
  REQUIRE(test::paddingIsZero(r));
}

}  // namespace

TEST_CASE("DoubleFloatVector holds about 48 bits and adds float corrections exactly", "[gl][linalg][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : test::awkwardSizes()) {
    INFO("n = " << n);
    const auto values = randomDoubles(n, n);
    DoubleFloatVector x(n, "x");
    x.upload(values);
    REQUIRE(maxDifference(x.download(), values) <= 0x1p-47);
    const auto c = test::randomFloats(n, n + 5, -1e-3f, 1e-3f);
    Vector correction(n, "c");
    correction.upload(c);
    const auto held = x.download();
    x.add(correction);
    std::vector<double> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = held[i] + double(c[i]);
    // The sum of a pair and a float is kept to about 2^-46 relative.
    REQUIRE(maxDifference(x.download(), expected) <= 0x1p-45);
    REQUIRE(test::paddingIsZero(x.hi()));
    REQUIRE(test::paddingIsZero(x.lo()));
  }
}

TEST_CASE("DoubleFloatVector rejects wrong sizes, values beyond float and other layouts", "[gl][linalg][double-float]") {
  test::context();
  DoubleFloatVector x(5, "x");
  const std::vector<double> four(4, 1.0);
  REQUIRE_THROWS_WITH(x.upload(four), Catch::Contains("DoubleFloatVector(\"x\").upload") && Catch::Contains("4 values"));
  std::vector<double> big(5, 1.0);
  big[3] = 1e300;
  REQUIRE_THROWS_WITH(x.upload(big), Catch::Contains("element 3"));
  big[3] = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_THROWS_WITH(x.upload(big), Catch::Contains("element 3"));
  Vector wrong(6, "c6");
  REQUIRE_THROWS_WITH(x.add(wrong), Catch::Contains("c6"));
}

TEST_CASE("BandedMatrix and StencilMatrix form b - A x in double-float arithmetic", "[gl][linalg][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : test::awkwardSizes()) {
    std::vector<int> offsets;
    for (int off : {0, -1, 1, 5, -33, 1000}) {
      if (std::abs(off) < int(n)) offsets.push_back(off);
    }
    std::vector<std::vector<float>> diagonals;
    for (std::size_t k = 0; k < offsets.size(); ++k) diagonals.push_back(test::randomFloats(n, 30 * n + k));
    const linalg::BandedMatrix a(n, offsets, diagonals, "A");
    auto multiply = [&](bool absolute) {
      return [&, absolute](const std::vector<double>& x) {
        std::vector<double> y(n, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
          for (std::size_t k = 0; k < offsets.size(); ++k) {
            const long long j = (long long)i + offsets[k];
            if (j < 0 || j >= (long long)n) continue;
            const double v = double(diagonals[k][i]) * x[std::size_t(j)];
            y[i] += absolute ? std::abs(v) : v;
          }
        }
        return y;
      };
    };
    checkResidual(a, multiply(false), multiply(true), n);
  }
  const std::size_t nx = 37, ny = 23;
  const auto s = linalg::StencilMatrix::poisson2D(nx, ny, "poisson");
  auto poisson = [&](bool absolute) {
    return [&, absolute](const std::vector<double>& x) {
      std::vector<double> y(nx * ny, 0.0);
      for (std::size_t yy = 0; yy < ny; ++yy) {
        for (std::size_t xx = 0; xx < nx; ++xx) {
          const std::size_t i = xx + nx * yy;
          auto term = [&](double v) { y[i] += absolute ? std::abs(v) : v; };
          term(4.0 * x[i]);
          if (xx > 0) term(-x[i - 1]);
          if (xx + 1 < nx) term(-x[i + 1]);
          if (yy > 0) term(-x[i - nx]);
          if (yy + 1 < ny) term(-x[i + nx]);
        }
      }
      return y;
    };
  };
  checkResidual(s, poisson(false), poisson(true), 77);
}

TEST_CASE("DenseMatrix forms b - A x in double-float arithmetic, one batch and split-K", "[gl][linalg][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const auto& shape : {std::pair<std::size_t, std::size_t>{1, 1}, {7, 5}, {97, 64}, {33, 131}, {5, 301}}) {
    // Named copies: clang 14 (emscripten) cannot capture structured bindings in lambdas.
    const std::size_t rows = shape.first, cols = shape.second;
    const auto values = test::randomFloats(rows * cols, rows * 1000 + cols);
    const linalg::DenseMatrix a(rows, cols, values, "A");
    auto multiply = [&](bool absolute) {
      return [&, absolute](const std::vector<double>& x) {
        std::vector<double> y(rows, 0.0);
        for (std::size_t i = 0; i < rows; ++i) {
          for (std::size_t j = 0; j < cols; ++j) {
            const double v = double(values[i * cols + j]) * x[j];
            y[i] += absolute ? std::abs(v) : v;
          }
        }
        return y;
      };
    };
    INFO(rows << " x " << cols << ", " << a.batches() << " batches");
    checkResidual(a, multiply(false), multiply(true), rows + cols);
  }
}

namespace {
/// A random square CSR matrix, with one row of 150 entries (three segment passes) when n
/// allows it.
linalg::Csr sparseWithLongRow(std::size_t n, std::uint64_t seed) {
  linalg::Csr a = test::randomCsr(n, n, 5.0, seed);
  if (n < 200) return a;
  std::vector<std::int64_t> rows, cols;
  std::vector<double> values;
  for (std::size_t r = 0; r < n; ++r) {
    for (auto k = a.rowPtr[r]; k < a.rowPtr[r + 1]; ++k) {
      rows.push_back(std::int64_t(r));
      cols.push_back(a.colIdx[std::size_t(k)]);
      values.push_back(a.values[std::size_t(k)]);
    }
  }
  for (std::size_t j = 0; j < 150; ++j) {
    rows.push_back(3);
    cols.push_back(std::int64_t((j * 7) % n));
    values.push_back(0.25 + 1e-3 * double(j));
  }
  return linalg::Csr::fromTriplets(n, n, rows, cols, values);
}

DoubleProduct csrProduct(const linalg::Csr& a, bool absolute) {
  return [&a, absolute](const std::vector<double>& x) {
    std::vector<double> y(a.rows, 0.0);
    for (std::size_t r = 0; r < a.rows; ++r) {
      for (auto k = a.rowPtr[r]; k < a.rowPtr[r + 1]; ++k) {
        const double v = a.values[std::size_t(k)] * x[std::size_t(a.colIdx[std::size_t(k)])];
        y[r] += absolute ? std::abs(v) : v;
      }
    }
    return y;
  };
}

/// The CSR with its values rounded to float: what the GPU formats store.
linalg::Csr roundedToFloat(linalg::Csr a) {
  for (double& v : a.values) v = double(float(v));
  return a;
}
}  // namespace

TEST_CASE("SegmentMatrix forms b - A x in double-float arithmetic, long rows and reordering included",
          "[gl][linalg][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const bool interleave = GENERATE(false, true);
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(97), std::size_t(1000)}) {
    const linalg::Csr csr = roundedToFloat(sparseWithLongRow(n, n + 3));
    linalg::SegmentOptions options;
    options.interleave = interleave;
    const linalg::SegmentMatrix a(csr, "S", options);
    INFO((interleave ? "interleaved" : "consecutive") << ", reordered " << a.reordered());
    checkResidual(a, csrProduct(csr, false), csrProduct(csr, true), n);
  }
}

TEST_CASE("BcrsMatrix forms b - A x in double-float arithmetic, 2x2 and 4x4 blocks, with RCM", "[gl][linalg][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (int block : {2, 4}) {
    for (bool rcm : {false, true}) {
      for (bool interleave : {false, true}) {
        for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(97), std::size_t(1000)}) {
          INFO("block " << block << ", RCM " << rcm << ", interleave " << interleave);
          const linalg::Csr csr = roundedToFloat(sparseWithLongRow(n, 7 * n + std::size_t(block)));
          const linalg::BcrsMatrix a(csr, "B", {.blockSize = block, .reverseCuthillMcKee = rcm, .interleave = interleave});
          checkResidual(a, csrProduct(csr, false), csrProduct(csr, true), n + std::size_t(block));
        }
      }
    }
  }
}

TEST_CASE("residualInDoubleFloat names the matrix and the vector on wrong shapes", "[gl][linalg][double-float]") {
  test::context();
  const auto a = linalg::StencilMatrix::poisson2D(4, 3, "P");
  DoubleFloatVector b(12, "b"), x(12, "x"), shortX(11, "x11");
  Vector r(12, "r"), r13(13, "r13");
  REQUIRE_THROWS_WITH(a.residualInDoubleFloat(b, shortX, r),
                      Catch::Contains("StencilMatrix(\"P\").residualInDoubleFloat") && Catch::Contains("x.hi"));
  REQUIRE_THROWS_WITH(a.residualInDoubleFloat(b, x, r13), Catch::Contains("r13"));
  REQUIRE_THROWS_WITH(a.residualInDoubleFloat(b, x, const_cast<Vector&>(x.hi())), Catch::Contains("must not be"));
}

// ---- Pair products with the entries' tails, and dot products in double-float ----------

namespace {
/// sparseWithLongRow with every value using all 53 bits (sin of an irrational argument),
/// so float entries alone lose about 2^-25 of each.
linalg::Csr withDoubleValues(linalg::Csr a) {
  for (std::size_t e = 0; e < a.values.size(); ++e) a.values[e] = std::sin(1.7 * double(e) + 0.3) + 0.01;
  return a;
}

/// Per row: sum_j a_ij x_j and sum_j |a_ij x_j| in long double.
std::pair<std::vector<long double>, std::vector<long double>> longDoubleProduct(const linalg::Csr& a,
                                                                                const std::vector<double>& x) {
  std::vector<long double> y(a.rows, 0.0L), scale(a.rows, 0.0L);
  for (std::size_t r = 0; r < a.rows; ++r) {
    for (auto k = a.rowPtr[r]; k < a.rowPtr[r + 1]; ++k) {
      const long double v = (long double)a.values[std::size_t(k)] * (long double)x[std::size_t(a.colIdx[std::size_t(k)])];
      y[r] += v;
      scale[r] += std::abs(v);
    }
  }
  return {y, scale};
}
}  // namespace

TEST_CASE("Double-float dot products carry about 48 bits, weighted or not, at awkward sizes",
          "[gl][linalg][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // 600,011 elements: more texels than the compute backend's workgroups cover in one
  // sweep, so each invocation sums several (the grid stride).
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(97), std::size_t(1000), std::size_t(4099),
                        std::size_t(600011)}) {
    DoubleFloatVector x(n, "x"), y(n, "y");
    x.upload(randomDoubles(n, n));
    y.upload(randomDoubles(n, n + 5));
    const auto weights = test::randomFloats(n, n + 9, 0.5f, 2.0f);
    Vector w(n, "w");
    w.upload(weights);
    const auto xs = x.download(), ys = y.download();
    for (bool weighted : {false, true}) {
      long double exact = 0, scale = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const long double term = (long double)xs[i] * ys[i] * (weighted ? (long double)weights[i] : 1.0L);
        exact += term;
        scale += std::abs(term);
      }
      stream::Scalar out("x.y");
      linalg::doubleFloatDot(x, y, out, weighted ? &w : nullptr);
      const double got = linalg::readDoubleFloat(out);
      INFO("n = " << n << (weighted ? ", weighted" : "") << ": " << got << " against " << double(exact));
      // 2^-44 of the terms' magnitudes: a float sum would be off by about 2^-24 of them.
      REQUIRE(std::abs((long double)got - exact) <= std::ldexp(1.0L, -44) * scale);
    }
  }
}

TEST_CASE("SegmentMatrix keeps its entries' tails and multiplies pairs by them in double-float arithmetic",
          "[gl][linalg][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const bool interleave = GENERATE(false, true);
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(97), std::size_t(1000)}) {
    const linalg::Csr csr = withDoubleValues(sparseWithLongRow(n, n + 11));
    linalg::SegmentOptions options;
    options.interleave = interleave;
    options.entryTails = true;
    linalg::SegmentMatrix a(csr, "S", options);
    INFO("n = " << n << ", " << (interleave ? "interleaved" : "consecutive") << ", reordered " << a.reordered());
    REQUIRE(a.hasEntryTails());
    const linalg::Csr back = a.toCsr();
    for (std::size_t e = 0; e < csr.values.size(); ++e) {
      REQUIRE(std::abs(back.values[e] - csr.values[e]) <= std::ldexp(std::abs(csr.values[e]), -46));
    }

    DoubleFloatVector x(n, "x"), y(n, "y");
    x.upload(randomDoubles(n, n + 1));
    const auto products = longDoubleProduct(csr, x.download());
    const std::vector<long double>& exact = products.first;
    const std::vector<long double>& scale = products.second;
    auto worstError = [&] {
      const auto got = y.download();
      long double worst = 0;
      for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs((long double)got[i] - exact[i]) / scale[i]);
      return double(worst);
    };
    a.applyInDoubleFloat(x, y);
    REQUIRE(worstError() <= std::ldexp(1.0, -44));
    REQUIRE(test::paddingIsZero(y.hi()));

    // b - A x with b = A x exactly (rounded to pairs): the defect is the rounding of b.
    std::vector<double> bValues(n);
    for (std::size_t i = 0; i < n; ++i) bValues[i] = double(exact[i]);
    DoubleFloatVector b(n, "b");
    b.upload(bValues);
    Vector r(n, "r");
    a.residualInDoubleFloat(b, x, r);
    const auto rs = r.download();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(std::abs(double(rs[i])) <= std::ldexp(double(scale[i]), -44));

    // Values written on the GPU are floats: a mutable access drops the tails, and the
    // product is then the float entries' (about 2^-25 of each entry away).
    a.mutableOffDiagonalValues();
    REQUIRE_FALSE(a.hasEntryTails());
    REQUIRE_THROWS_WITH(a.offDiagonalTails(), Catch::Contains("S") && Catch::Contains("no entry tails"));
    a.applyInDoubleFloat(x, y);
    if (n > 1) REQUIRE(worstError() > std::ldexp(1.0, -40));
    a.setValues(csr.values);
    REQUIRE(a.hasEntryTails());
    a.setKeepEntryTails(false);
    REQUIRE_FALSE(a.hasEntryTails());
  }
}

TEST_CASE("applyInDoubleFloat names operators without the kernel and wrong shapes", "[gl][linalg][double-float]") {
  test::context();
  const auto stencil = linalg::StencilMatrix::poisson2D(4, 3, "P");
  DoubleFloatVector x(12, "x"), y(12, "y"), x11(11, "x11");
  REQUIRE_THROWS_WITH(stencil.applyInDoubleFloat(x, y), Catch::Contains("\"P\"") && Catch::Contains("no double-float product"));
  const linalg::SegmentMatrix s(linalg::Csr::poisson2D(4, 3), "S");
  REQUIRE_THROWS_WITH(s.applyInDoubleFloat(x11, y), Catch::Contains("S") && Catch::Contains("x11"));
  stream::Scalar out("out");
  REQUIRE_THROWS_WITH(linalg::doubleFloatDot(x, x11, out), Catch::Contains("x11"));
}
