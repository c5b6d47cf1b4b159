#pragma once
// texstream::stream::GridLayout3D: how an nx x ny x nz grid of cells sits in one 2D RGBA
// texture, a "flat 3D texture" (Harris 2003, Harris et al.'s cloud simulation): z-slice k is
// a tile of tileWidth() x ny texels at tile position (k % tilesX, k / tilesX). Packing:
//  - FourCellsAlongX (scalar fields: pressure, right-hand sides, CG's vectors): a texel holds
//    cells (4q .. 4q+3, j, k) in .xyzw, so tileWidth = ceil(nx / 4); the channels of cells
//    x >= nx are padding;
//  - OneCellPerTexel (fields with several values a cell: velocity, labels): texel (i, j) of
//    tile k holds cell (i, j, k), tileWidth = nx.
// Texels outside the grid (unused tiles of the last tile row, the padding channels) are
// zero in every field, which is what sum reductions need. Kernels address cells through
// shaders/grid3d/grid.glsl, the one place that knows this mapping on the GPU.
//
// The flat layout runs on every backend and context the 2D fields run on (one rectangle
// per pass, no layered rendering), and every vector operation, reduction and CG works on
// it unchanged: a field is a Vector whose layout() covers the whole texture.
#include <texstream/stream/Layout.h>

#include <array>
#include <cstddef>
#include <string>

namespace texstream::stream {

class Pass;

class GridLayout3D {
 public:
  enum class Packing { FourCellsAlongX, OneCellPerTexel };

  GridLayout3D() = default;
  /// nx x ny x nz cells (>= 1 each). Throws Error naming `what`, the grid and the current
  /// context's texture limit when the flat texture does not fit.
  GridLayout3D(int nx, int ny, int nz, Packing packing, const std::string& what);

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  int nz() const { return m_nz; }
  Packing packing() const { return m_packing; }
  int cellsPerTexel() const { return m_packing == Packing::FourCellsAlongX ? 4 : 1; }
  std::size_t cells() const { return std::size_t(m_nx) * std::size_t(m_ny) * std::size_t(m_nz); }
  int tileWidth() const { return m_tileWidth; }
  int tilesX() const { return m_tilesX; }
  int tilesY() const { return m_tilesY; }
  int width() const { return m_tileWidth * m_tilesX; }
  int height() const { return m_ny * m_tilesY; }
  /// The vector layout of a field: every texel of the width() x height() texture.
  Layout layout() const;
  /// Texel (column, row) of texel-column q (cells 4q..4q+3 when packed), row j, slice k.
  std::array<int, 2> texel(int q, int j, int k) const {
    return {(k % m_tilesX) * m_tileWidth + q, (k / m_tilesX) * m_ny + j};
  }
  /// Scalar index (4 texel + channel) of cell (i, j, k) in the texture, for packing data.
  std::size_t scalarIndex(int i, int j, int k) const;
  /// The grid of the next multigrid level: ceil(n / 2) cells a side, the same packing.
  GridLayout3D coarse(const std::string& what) const;
  /// "64x64x32"
  std::string describe() const;
  bool operator==(const GridLayout3D& o) const {
    return m_nx == o.m_nx && m_ny == o.m_ny && m_nz == o.m_nz && m_packing == o.m_packing && m_tilesX == o.m_tilesX;
  }
  bool operator!=(const GridLayout3D& o) const { return !(*this == o); }

 private:
  int m_nx = 0, m_ny = 0, m_nz = 0;
  Packing m_packing = Packing::FourCellsAlongX;
  int m_tileWidth = 0, m_tilesX = 0, m_tilesY = 0;
};

/// Binds `uniform Grid3 name;` (shaders/grid3d/grid.glsl) on `pass` to the layout of `grid`.
Pass& bindGrid(Pass& pass, const std::string& name, const GridLayout3D& grid);

}  // namespace texstream::stream
