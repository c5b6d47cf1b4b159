#pragma once
// Test support for the 3D pressure operator (linalg/PressureDomain3D.h, PressureMatrix3D.h):
// random domains and short names for the library's example domains, and CPU
// double-precision forms of the operator on the whole grid.
#include "support/Random.h"

#include <texstream/linalg/PressureDomain3D.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace texstream::test {

using linalg::CellLabel;
using linalg::PressureDomain3D;

inline PressureDomain3D emptyDomain(int nx, int ny, int nz) { return PressureDomain3D::box(nx, ny, nz); }

/// Random labels (about 60% fluid, 20% solid, 20% air), random sides, optionally a level set
/// consistent with the labels (fluid < 0 <= air) and random face fractions (some exactly 0
/// or 1). At least one fluid cell.
inline PressureDomain3D randomDomain(int nx, int ny, int nz, std::uint64_t seed, bool levelSet, bool fractions) {
  PressureDomain3D d = emptyDomain(nx, ny, nz);
  const std::vector<float> u = randomFloats(d.cells(), seed, 0.0f, 1.0f);
  for (std::size_t c = 0; c < d.cells(); ++c) {
    d.labels[c] = u[c] < 0.6f ? CellLabel::Fluid : (u[c] < 0.8f ? CellLabel::Solid : CellLabel::Air);
  }
  d.labels[0] = CellLabel::Fluid;
  const std::vector<float> sides = randomFloats(6, seed + 1, 0.0f, 1.0f);
  for (int s = 0; s < 6; ++s) d.outside[std::size_t(s)] = sides[std::size_t(s)] < 0.5f ? CellLabel::Solid : CellLabel::Air;
  if (levelSet) {
    const std::vector<float> m = randomFloats(d.cells(), seed + 2, 0.02f, 1.0f);
    d.levelSet.resize(d.cells());
    for (std::size_t c = 0; c < d.cells(); ++c) d.levelSet[c] = d.labels[c] == CellLabel::Fluid ? -m[c] : m[c];
  }
  if (fractions) {
    for (std::size_t a = 0; a < 3; ++a) {
      std::vector<float> f = randomFloats(d.cells(), seed + 3 + a, -0.3f, 1.3f);
      for (float& v : f) v = std::clamp(v, 0.0f, 1.0f);
      d.faceOpen[a] = f;
    }
  }
  return d;
}

inline PressureDomain3D smokeBox(int nx, int ny, int nz) { return PressureDomain3D::box(nx, ny, nz, {linalg::kZHigh}); }
inline PressureDomain3D smokeSphere(int n) { return PressureDomain3D::smokeAroundSphere(n); }
inline PressureDomain3D pool(int nx, int ny, int nz) { return PressureDomain3D::pool(nx, ny, nz); }
/// All fluid, every side closed: one floating component.
inline PressureDomain3D closedBox(int nx, int ny, int nz) { return PressureDomain3D::box(nx, ny, nz); }

/// The unknown cells' values of a whole-grid vector (x fastest), in toCsr's row order.
inline std::vector<double> onUnknowns(const std::vector<std::int64_t>& unknownOfCell, const std::vector<float>& cells) {
  std::vector<double> v;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    if (unknownOfCell[c] >= 0) v.push_back(cells[c]);
  }
  return v;
}

/// A x on the whole grid in double (0 on cells without an equation), x given on every cell.
inline std::vector<double> applyOnGrid(const PressureDomain3D& d, const std::vector<float>& x) {
  std::vector<std::int64_t> unknown;
  const linalg::Csr A = d.toCsr(&unknown);
  const std::vector<double> y = A.multiply(onUnknowns(unknown, x));
  std::vector<double> out(d.cells(), 0.0);
  for (std::size_t c = 0; c < d.cells(); ++c) {
    if (unknown[c] >= 0) out[c] = y[std::size_t(unknown[c])];
  }
  return out;
}

}  // namespace texstream::test
