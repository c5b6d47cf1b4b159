#pragma once
// Test support for the 3D fluid (fluid/FluidKernels3D.h): fields of a MAC grid on the CPU in
// double, their transfers to and from the GPU, and the kernels of shaders/fluid3d/ as CPU
// references with the same rules (clamps, boundaries, limiter).
#include <texstream/fluid/FluidKernels3D.h>
#include <texstream/stream/GridField3D.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace texstream::test {

/// sx x sy x sz texels of four values (one cell or one set of faces a texel), x fastest.
struct Field3 {
  int sx = 0, sy = 0, sz = 0;
  std::vector<double> v;
  Field3() = default;
  Field3(int x, int y, int z) : sx(x), sy(y), sz(z), v(4 * std::size_t(x) * std::size_t(y) * std::size_t(z), 0.0) {}
  std::size_t index(int i, int j, int k) const { return std::size_t(i) + std::size_t(sx) * (std::size_t(j) + std::size_t(sy) * std::size_t(k)); }
  double& at(int i, int j, int k, int c) { return v[4 * index(i, j, k) + std::size_t(c)]; }
  double at(int i, int j, int k, int c) const { return v[4 * index(i, j, k) + std::size_t(c)]; }
  double& at(std::array<int, 3> b, int c) { return at(b[0], b[1], b[2], c); }
  double at(std::array<int, 3> b, int c) const { return at(b[0], b[1], b[2], c); }
};

/// One-cell-a-texel GPU field <-> Field3.
Field3 download(const stream::GridField3D& f);
void upload(const Field3& f, stream::GridField3D& out);
/// Packed cells field (one value a cell) <-> nx ny nz values.
std::vector<double> downloadPacked(const stream::GridField3D& f);

/// The CPU MAC grid: nx x ny x nz cells, faces (nx + 1) x (ny + 1) x (nz + 1).
struct MacReference {
  int nx, ny, nz;
  using Index = std::array<int, 3>;
  Index n() const { return {nx, ny, nz}; }
  Field3 cells() const { return Field3(nx, ny, nz); }
  Field3 faces() const { return Field3(nx + 1, ny + 1, nz + 1); }
  Index faceLast(int axis) const {
    Index last{nx - 1, ny - 1, nz - 1};
    last[std::size_t(axis)] += 1;
    return last;
  }
  bool faceExists(Index b, int axis) const {
    const Index last = faceLast(axis);
    for (int a = 0; a < 3; ++a)
      if (b[std::size_t(a)] < 0 || b[std::size_t(a)] > last[std::size_t(a)]) return false;
    return true;
  }
  bool cellInside(Index c) const {
    for (int a = 0; a < 3; ++a)
      if (c[std::size_t(a)] < 0 || c[std::size_t(a)] >= n()[std::size_t(a)]) return false;
    return true;
  }
  /// Zeroes each component's texels beyond its faces.
  void clearBeyondFaces(Field3& f) const;

  /// Trilinear interpolation of channel-vector f at p (texel coordinates), clamped to
  /// [0, last]; lo/hi the range of the eight texels.
  std::array<double, 4> interpolate(const Field3& f, std::array<double, 3> p, Index last, std::array<double, 4>* lo = nullptr,
                                    std::array<double, 4>* hi = nullptr) const;
  double interpolateFace(const Field3& f, std::array<double, 3> p, int axis, double* lo = nullptr, double* hi = nullptr) const;
  std::array<double, 3> faceVelocity(const Field3& u, Index b, int axis) const;
  std::array<double, 3> cellVelocity(const Field3& u, Index c) const;

  Field3 curl(const Field3& u, double h) const;
  /// advectVelocity3D / advectCells3D without and with the last pass's additions.
  Field3 advectFaces(const Field3& q, const Field3& u, double dtOverH, bool reverse) const;
  Field3 advectCells(const Field3& q, const Field3& u, double dtOverH, bool reverse) const;
  /// computeCellForces3D: scalars and curl may be null.
  Field3 cellForces(const fluid::CellForces3D& f, const Field3* scalars, const Field3* curl) const;
  Field3 advectVelocity(const Field3& u, double dtOverH, fluid::Advection scheme, const fluid::FaceForces3D& forces,
                        const Field3& solids, const Field3* cellForces) const;
  Field3 advectCellsFull(const Field3& q, const Field3& u, double dtOverH, fluid::Advection scheme,
                         const fluid::CellUpdate3D& update, const Field3* solids) const;
  /// diagonal, q, levelSet: packed cells (nx ny nz values).
  std::vector<double> divergence(const Field3& u, const std::vector<double>& diagonal) const;
  Field3 subtractGradient(const Field3& u, const std::vector<double>& q, const std::vector<double>& diagonal,
                          const std::array<int, 6>& outside, const std::vector<double>* levelSet, bool states) const;
  Field3 extrapolate(const Field3& u, bool last) const;
  Field3 redistance(const Field3& phi, double shift) const;
  std::size_t cell(Index c) const { return std::size_t(c[0]) + std::size_t(nx) * (std::size_t(c[1]) + std::size_t(ny) * std::size_t(c[2])); }
};

}  // namespace texstream::test
