#pragma once
// texstream::stream::GridField3D: a field on an nx x ny x nz grid of cells in a flat 3D
// texture (GridLayout3D.h): the 3D counterpart of GridField. A scalar field (pressure, a
// right-hand side) packs four x-consecutive cells a texel; a field of several values a cell
// (velocity, temperature and density) keeps one cell a texel in RGBA. It is a Vector, so
// vector operations, reductions and CG take it as they are; cells are uploaded and
// downloaded in x-fastest order, cell (i, j, k) at i + nx (j + ny k).
//
//   GridField3D p(GridLayout3D(64, 64, 64, GridLayout3D::Packing::FourCellsAlongX, "p"), "p");
//   p.uploadCells(values);                       // 64^3 values, x fastest
//   Pass pass("..."); pass.input("u_p", p); bindGrid(pass, "u_grid", p.grid()) ...
#include <texstream/stream/GridLayout3D.h>
#include <texstream/stream/Vector.h>

#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace texstream::stream {

class GridField3D : public Vector {
 public:
  GridField3D() = default;
  /// A zero field on `grid`.
  GridField3D(const GridLayout3D& grid, std::string name, gl::TextureFormat format = gl::TextureFormat::RGBA32F);
  /// From the runtime's texture pool (Vector::temporary): contents not zeroed.
  static GridField3D temporary(const GridLayout3D& grid, std::string name,
                               gl::TextureFormat format = gl::TextureFormat::RGBA32F);

  const GridLayout3D& grid() const { return m_grid; }
  /// Whether this field is on `grid` (false when empty).
  bool hasGrid(const GridLayout3D& grid) const { return !empty() && m_grid == grid; }

  /// Packed scalar fields: nx ny nz values, x fastest. Throws Error naming the field when
  /// the count differs or the field keeps one cell a texel.
  void uploadCells(std::span<const float> values);
  std::vector<float> downloadCells() const;
  /// One-cell-a-texel fields: up to four channels of nx ny nz values each, x fastest;
  /// channels not given are zero. Throws Error naming the field for a wrong count, more
  /// than four channels, or a packed field.
  void uploadChannels(std::initializer_list<std::span<const float>> channels);
  /// Channel c (0..3) of every cell of a one-cell-a-texel field, x fastest.
  std::vector<float> downloadChannel(int c) const;

 private:
  GridField3D(Vector v, const GridLayout3D& grid) : Vector(std::move(v)), m_grid(grid) {}
  GridLayout3D m_grid;
};

/// Throws Error("what: field \"a\" is on the 8x8x8 grid, expected 9x9x9") unless `f` is on
/// `grid` (and not empty).
void requireGrid(const std::string& what, const GridField3D& f, const GridLayout3D& grid);

}  // namespace texstream::stream
