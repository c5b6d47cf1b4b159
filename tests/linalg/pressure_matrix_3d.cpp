// Tests src/linalg/PressureDomain3D.* and PressureMatrix3D.* (shaders/pressure3d/build.glsl,
// operator.glsl, apply.glsl, apply_dot.glsl): the coefficients built on the GPU and the
// product y = A x against the CPU's double-precision CSR on random domains (labels, sides,
// a level set's theta, face fractions) at awkward sizes on both backends; the fused product
// and dot; cells without an equation give 0 whatever x holds there; floating components;
// bad domains refused by name.
#include <catch2/catch.hpp>

#include "linalg/FusedDotSupport.h"
#include "linalg/PressureDomains.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/PressureMatrix3D.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Scalar.h>

#include <cmath>
#include <tuple>

using namespace texstream;
using linalg::CellLabel;
using linalg::PressureDomain3D;
using linalg::PressureMatrix3D;
using stream::GridField3D;

namespace {

const std::vector<std::tuple<int, int, int>> kGrids{{1, 1, 1}, {17, 5, 3}, {5, 7, 11}, {8, 8, 8}, {3, 2, 13}};

/// max |got - want| over the cells, relative to max |want| (and 1).
double gridError(const std::vector<float>& got, const std::vector<double>& want) {
  double err = 0, scale = 1;
  for (std::size_t c = 0; c < want.size(); ++c) {
    err = std::max(err, std::abs(double(got[c]) - want[c]));
    scale = std::max(scale, std::abs(want[c]));
  }
  return err / scale;
}

}  // namespace

TEST_CASE("PressureDomain3D: CSR rows of fluid cells, second-order free surface, face fractions", "[linalg][pressure3d]") {
  // 3 x 1 x 1: fluid, fluid, air; the level set puts the surface 0.25 of a cell beyond the
  // second cell's centre: theta = 0.25 / 1 ... the face to air adds 1 / theta.
  PressureDomain3D d = test::emptyDomain(3, 1, 1);
  d.labels[2] = CellLabel::Air;
  d.levelSet = {-1.25f, -0.25f, 0.75f};
  std::vector<std::int64_t> unknown;
  const linalg::Csr A = d.toCsr(&unknown);
  REQUIRE(A.rows == 2);
  CHECK(unknown == std::vector<std::int64_t>{0, 1, -1});
  CHECK(A.multiply({1.0, 0.0}) == std::vector<double>{1.0, -1.0});
  CHECK(A.multiply({0.0, 1.0})[1] == Approx(1.0 + 1.0 / 0.25));
  // Open sides count as air at theta = 1; a half-open face halves its coupling.
  d.outside[linalg::kXLow] = CellLabel::Air;
  d.faceOpen[0] = {1.0f, 0.5f, 1.0f};
  const linalg::Csr B = d.toCsr();
  CHECK(B.multiply({1.0, 0.0}) == std::vector<double>{1.5, -0.5});
  CHECK(d.floatingComponents().empty());
  d.outside[linalg::kXLow] = CellLabel::Solid;
  d.labels[2] = CellLabel::Solid;
  d.levelSet.clear();
  REQUIRE(d.floatingComponents().size() == 1);
  CHECK(d.floatingComponents()[0] == std::vector<std::size_t>{0, 1});
}

TEST_CASE("PressureDomain3D refuses bad domains by name", "[linalg][pressure3d]") {
  PressureDomain3D d = test::emptyDomain(4, 3, 2);
  d.labels.pop_back();
  CHECK_THROWS_WITH(d.validate("dom"), Catch::Contains("dom") && Catch::Contains("23 labels") && Catch::Contains("24 cells"));
  d = test::emptyDomain(4, 3, 2);
  d.labels.assign(24, CellLabel::Solid);
  CHECK_THROWS_WITH(d.validate("dom"), Catch::Contains("no fluid cell"));
  d = test::emptyDomain(4, 3, 2);
  d.labels[5] = CellLabel(7);
  CHECK_THROWS_WITH(d.validate("dom"), Catch::Contains("label 7 at cell index 5"));
  d = test::emptyDomain(4, 3, 2);
  d.faceOpen[1].assign(24, 1.0f);
  d.faceOpen[1][3] = 1.5f;
  CHECK_THROWS_WITH(d.validate("dom"), Catch::Contains("-y face of cell index 3") && Catch::Contains("outside [0, 1]"));
  d = test::emptyDomain(4, 3, 2);
  d.labels[1] = CellLabel::Air;
  d.levelSet.assign(24, -1.0f);
  CHECK_THROWS_WITH(d.validate("dom"), Catch::Contains("disagrees with the labels"));
  d.levelSet[1] = std::nanf("");
  CHECK_THROWS_WITH(d.validate("dom"), Catch::Contains("level set is nan"));
  d = test::emptyDomain(0, 3, 2);
  CHECK_THROWS_WITH(d.validate("dom"), Catch::Contains("0x3x2"));
  d = test::emptyDomain(2, 2, 2);
  d.outside[3] = CellLabel::Fluid;
  CHECK_THROWS_WITH(d.validate("dom"), Catch::Contains("+y side"));
}

TEST_CASE("PressureMatrix3D: y = A x matches the CSR in double on random domains", "[gl][linalg][pressure3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 1;
  for (auto [nx, ny, nz] : kGrids) {
    for (int variant = 0; variant < 4; ++variant) {
      const bool levelSet = variant & 1, fractions = variant & 2;
      INFO(nx << "x" << ny << "x" << nz << (levelSet ? " level set" : "") << (fractions ? " fractions" : ""));
      const PressureDomain3D d = test::randomDomain(nx, ny, nz, seed++, levelSet, fractions);
      const PressureMatrix3D A(d, "A");
      CHECK(A.rows() == A.grid().layout().size());
      GridField3D x(A.grid(), "x"), y(A.grid(), "y");
      // Non-zero on every cell, equation or not: A must ignore x off the equations.
      const std::vector<float> xs = test::randomFloats(d.cells(), seed++);
      x.uploadCells(xs);
      linalg::fill(y, 7.0f);
      A.apply(x, y);
      CHECK(gridError(y.downloadCells(), test::applyOnGrid(d, xs)) <= 2e-6);
      // diag(A): the CSR's diagonal on the unknowns, 0 elsewhere (air included).
      GridField3D diag(A.grid(), "diag");
      A.diagonal(diag);
      std::vector<std::int64_t> unknown;
      const linalg::Csr csr = d.toCsr(&unknown);
      const std::vector<double> csrDiag = csr.diagonal();
      std::vector<double> want(d.cells(), 0.0);
      for (std::size_t c = 0; c < d.cells(); ++c) {
        if (unknown[c] >= 0) want[c] = csrDiag[std::size_t(unknown[c])];
      }
      CHECK(gridError(diag.downloadCells(), want) <= 1e-6);
      // The matrix read back from the GPU is the CPU's, over the same unknowns.
      std::vector<std::int64_t> unknownGpu;
      const linalg::Csr back = A.toCsr(&unknownGpu);
      CHECK(unknownGpu == unknown);
      REQUIRE(back.rowPtr == csr.rowPtr);
      CHECK(back.colIdx == csr.colIdx);
      for (std::size_t e = 0; e < csr.values.size(); ++e) CHECK(back.values[e] == Approx(csr.values[e]).epsilon(1e-6));
    }
  }
}

TEST_CASE("PressureMatrix3D: the fused product and dot (compute backend)", "[gl][linalg][pressure3d][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  for (auto [nx, ny, nz] : std::vector<std::tuple<int, int, int>>{{17, 5, 3}, {67, 61, 5}}) {
    INFO(nx << "x" << ny << "x" << nz);
    const PressureDomain3D d = test::randomDomain(nx, ny, nz, 77, true, nx == 17);
    const PressureMatrix3D A(d, "A");
    GridField3D x(A.grid(), "x"), y(A.grid(), "y");
    const std::vector<float> xs = test::randomFloats(d.cells(), 78);
    x.uploadCells(xs);
    const std::vector<double> want = test::applyOnGrid(d, xs);
    double dot = 0, terms = 0;
    for (std::size_t c = 0; c < want.size(); ++c) dot += want[c] * xs[c], terms += std::abs(want[c] * xs[c]);
    stream::Scalar result("dot", std::nanf(""));
    for (int repeat = 0; repeat < 2; ++repeat) {
      linalg::fill(y, -3.0f);
      A.applyAndDot(x, y, test::storeDot(result));
      CHECK(gridError(y.downloadCells(), want) <= 2e-6);
      CHECK(std::abs(result.read() - dot) <= 1e-5 * terms);
    }
  }
}

TEST_CASE("PressureMatrix3D: the sides, floating components and bad vectors", "[gl][linalg][pressure3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // A closed box is one floating component; open its top and none is left.
  const PressureMatrix3D closed(test::closedBox(6, 5, 4), "closed");
  CHECK(closed.floatingCount() == 1);
  std::vector<float> ids = closed.floatingField().downloadCells();
  CHECK(std::count(ids.begin(), ids.end(), 1.0f) == 6 * 5 * 4);
  const PressureMatrix3D open(test::smokeBox(6, 5, 4), "open");
  CHECK(open.floatingCount() == 0);
  // Two closed pockets separated by a solid wall, one open region.
  PressureDomain3D d = test::emptyDomain(7, 3, 3);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) d.labels[d.cell(2, j, k)] = d.labels[d.cell(4, j, k)] = CellLabel::Solid;
  d.labels[d.cell(6, 1, 1)] = CellLabel::Air;
  const PressureMatrix3D pockets(d, "pockets");
  CHECK(pockets.floatingCount() == 2);

  GridField3D wrong(stream::GridLayout3D(5, 5, 4, stream::GridLayout3D::Packing::FourCellsAlongX, "w"), "wrong");
  GridField3D y(open.grid(), "y");
  CHECK_THROWS_WITH(open.apply(wrong, y), Catch::Contains("PressureMatrix3D(\"open\").apply") &&
                                              Catch::Contains("\"wrong\"") && Catch::Contains("6x5x4"));
  CHECK_THROWS_WITH(open.apply(y, y), Catch::Contains("must not be"));
  PressureDomain3D solid = test::emptyDomain(3, 3, 3);
  solid.labels.assign(27, CellLabel::Solid);
  CHECK_THROWS_WITH(PressureMatrix3D(solid, "solid"), Catch::Contains("solid") && Catch::Contains("no fluid cell"));
}

TEST_CASE("PressureMatrix3D::update rebuilds from GPU fields", "[gl][linalg][pressure3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const PressureDomain3D d = test::pool(9, 6, 10);
  PressureMatrix3D A(PressureMatrix3D::Shape{9, 6, 10, d.outside, false}, "updated");
  GridField3D labels(A.grid(), "labels"), phi(A.grid(), "phi"), x(A.grid(), "x"), y(A.grid(), "y");
  std::vector<float> l(d.cells());
  for (std::size_t c = 0; c < d.cells(); ++c) l[c] = float(d.labels[c]);
  labels.uploadCells(l);
  phi.uploadCells(d.levelSet);
  A.update(labels, &phi, nullptr, false);
  const std::vector<float> xs = test::randomFloats(d.cells(), 5);
  x.uploadCells(xs);
  A.apply(x, y);
  CHECK(gridError(y.downloadCells(), test::applyOnGrid(d, xs)) <= 2e-6);
  A.update(labels, &phi, nullptr, true);
  CHECK(A.floatingCount() == 1);
  std::array<const GridField3D*, 3> fractions{&phi, &phi, &phi};
  CHECK_THROWS_WITH(A.update(labels, &phi, &fractions, false), Catch::Contains("without face fractions"));
  GridField3D other(stream::GridLayout3D(9, 6, 11, stream::GridLayout3D::Packing::FourCellsAlongX, "o"), "other");
  CHECK_THROWS_WITH(A.update(other, nullptr, nullptr, false), Catch::Contains("labels") && Catch::Contains("9x6x11"));
}
