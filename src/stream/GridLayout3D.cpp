#include <texstream/stream/GridLayout3D.h>

#include <texstream/gl/Error.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace texstream::stream {

namespace {

std::string gridText(long long nx, long long ny, long long nz) {
  // Appended piece by piece: GCC 12's "x" + std::string trips a false -Wrestrict (bug 105329).
  std::string text = std::to_string(nx);
  for (long long side : {ny, nz}) {
    text += 'x';
    text += std::to_string(side);
  }
  return text;
}

}  // namespace

GridLayout3D::GridLayout3D(int nx, int ny, int nz, Packing packing, const std::string& what)
    : m_nx(nx), m_ny(ny), m_nz(nz), m_packing(packing) {
  if (nx < 1 || ny < 1 || nz < 1) {
    throw gl::Error(what + ": a 3D grid needs at least one cell a side, got " + gridText(nx, ny, nz));
  }
  const long long maxSide = Runtime::current().caps().maxTextureSize;
  m_tileWidth = (nx + cellsPerTexel() - 1) / cellsPerTexel();
  // Tiles per row: the arrangement whose longer side is shortest (a near-square texture), among
  // those that fit the texture limit; ties go to fewer unused tiles.
  long long bestSide = LLONG_MAX, bestWaste = LLONG_MAX;
  for (long long across = 1; across <= nz; ++across) {
    const long long down = (nz + across - 1) / across;
    const long long w = across * m_tileWidth, h = down * ny;
    if (w > maxSide) break;
    if (h > maxSide) continue;
    const long long side = std::max(w, h), waste = across * down - nz;
    if (side < bestSide || (side == bestSide && waste < bestWaste)) {
      bestSide = side;
      bestWaste = waste;
      m_tilesX = int(across);
      m_tilesY = int(down);
    }
  }
  if (m_tilesX == 0) {
    throw gl::Error(what + ": the " + gridText(nx, ny, nz) + " grid does not fit a texture: its " +
                    std::to_string(nz) + " slices of " + std::to_string(m_tileWidth) + "x" + std::to_string(ny) +
                    " texels need more than the maximum texture size (GL_MAX_TEXTURE_SIZE) of " +
                    std::to_string(maxSide) + " texels a side on " + Runtime::current().caps().renderer);
  }
  if (std::int64_t(width()) * height() * 4 > INT_MAX) {
    throw gl::Error(what + ": the " + gridText(nx, ny, nz) + " grid needs " + std::to_string(width()) + "x" +
                    std::to_string(height()) + " texels, more than kernels can index (INT_MAX scalars)");
  }
}

Layout GridLayout3D::layout() const { return Layout::withWidth(4 * std::size_t(width()) * std::size_t(height()), width()); }

std::size_t GridLayout3D::scalarIndex(int i, int j, int k) const {
  const int q = i / cellsPerTexel();
  const auto [x, y] = texel(q, j, k);
  const std::size_t t = std::size_t(y) * std::size_t(width()) + std::size_t(x);
  return 4 * t + std::size_t(m_packing == Packing::FourCellsAlongX ? i % 4 : 0);
}

GridLayout3D GridLayout3D::coarse(const std::string& what) const {
  return GridLayout3D((m_nx + 1) / 2, (m_ny + 1) / 2, (m_nz + 1) / 2, m_packing, what);
}

std::string GridLayout3D::describe() const { return gridText(m_nx, m_ny, m_nz); }

Pass& bindGrid(Pass& pass, const std::string& name, const GridLayout3D& grid) {
  pass.uniform(name + ".size", grid.nx(), grid.ny(), grid.nz(), grid.tilesX());
  return pass.uniform(name + ".tileWidth", grid.tileWidth());
}

}  // namespace texstream::stream
