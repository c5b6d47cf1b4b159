// Regular-grid stencils with per-point coefficients (Batty 2003, Frantic Films' 7-point
// Laplacian; Bolz et al. 2003 §4 keep a 3x3 stencil per grid point), stored as the
// diagonals of a BandedMatrix (Krüger & Westermann §44.2.2).
#include <texstream/linalg/StencilMatrix.h>

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/OperatorShapes.h>

#include <map>
#include <stdexcept>

namespace texstream::linalg {

namespace {

std::string gridText(std::size_t nx, std::size_t ny, std::size_t nz, bool threeD) {
  // Appended piece by piece: GCC 12's "x" + std::string trips a false -Wrestrict (bug 105329).
  std::string text = std::to_string(nx) + "x" + std::to_string(ny);
  if (threeD) text += 'x' + std::to_string(nz);
  return text;
}

/// nx ny nz, or std::invalid_argument under `title` for an empty grid or one whose point
/// count overflows.
std::size_t gridPoints(const std::string& title, std::size_t nx, std::size_t ny, std::size_t nz, bool threeD) {
  if (nx == 0 || ny == 0 || nz == 0) {
    throw std::invalid_argument(title + ": empty grid " + gridText(nx, ny, nz, threeD));
  }
  return stream::checkedGridSize(title, nx, ny, nz);
}

}  // namespace

StencilMatrix::StencilMatrix(Kind kind, std::size_t nx, std::size_t ny, std::size_t nz,
                             const std::vector<Entry>& entries, std::string name)
    : StoredMatrix("StencilMatrix", name,
                   gridPoints(operatorTitle("StencilMatrix", name), nx, ny, nz, kind == Kind::SevenPoint)),
      m_kind(kind), m_nx(nx), m_ny(ny), m_nz(nz),
      m_banded([&] {
        const std::string title = this->title();
        const bool threeD = kind == Kind::SevenPoint;
        const std::size_t n = rows();
        // One diagonal per distinct offset dx + nx (dy + ny dz); on thin grids two stencil
        // entries can share an offset (west and south when nx = 1), but at most one of
        // them is inside the grid at each point, so summing them is exact.
        std::map<long long, std::vector<float>> byOffset;
        byOffset[0] = std::vector<float>(n, 0.0f);
        for (const Entry& e : entries) {
          if (e.values->size() != n) {
            throw std::invalid_argument(title + ": " + e.label + " has " + std::to_string(e.values->size()) +
                                        " coefficients, the " + gridText(nx, ny, nz, threeD) + " grid has " +
                                        std::to_string(n) + " points");
          }
          const long long off = e.dx + (long long)nx * (e.dy + (long long)ny * e.dz);
          std::vector<float> d(n, 0.0f);
          bool any = false;
          for (std::size_t z = 0; z < nz; ++z) {
            for (std::size_t y = 0; y < ny; ++y) {
              for (std::size_t x = 0; x < nx; ++x) {
                const long long X = (long long)x + e.dx, Y = (long long)y + e.dy, Z = (long long)z + e.dz;
                if (X < 0 || Y < 0 || Z < 0 || X >= (long long)nx || Y >= (long long)ny || Z >= (long long)nz) {
                  continue;  // Dirichlet: the neighbour is not a grid point (never the next row's)
                }
                const std::size_t i = x + nx * (y + ny * z);
                d[i] = (*e.values)[i];
                any = any || d[i] != 0.0f;
              }
            }
          }
          if (!any && off != 0) continue;  // nothing couples along this offset
          auto& target = byOffset.try_emplace(off, std::vector<float>(n, 0.0f)).first->second;
          for (std::size_t i = 0; i < n; ++i) target[i] += d[i];
        }
        std::vector<int> offsets;
        std::vector<std::vector<float>> diagonals;
        for (auto& [off, values] : byOffset) {
          offsets.push_back(int(off));
          diagonals.push_back(std::move(values));
        }
        return BandedMatrix(n, std::move(offsets), diagonals, name);
      }()) {
  initRowLayout();
}

template <class Coefficients>
std::vector<StencilMatrix::Entry> StencilMatrix::crossEntries(const Coefficients& c) {
  return {{0, 0, 0, &c.center, "center"},
          {-1, 0, 0, &c.west, "west"},
          {1, 0, 0, &c.east, "east"},
          {0, -1, 0, &c.south, "south"},
          {0, 1, 0, &c.north, "north"}};
}

StencilMatrix StencilMatrix::fivePoint(std::size_t nx, std::size_t ny, const FivePointCoefficients& c,
                                       std::string name) {
  return StencilMatrix(Kind::FivePoint, nx, ny, 1, crossEntries(c), std::move(name));
}

StencilMatrix StencilMatrix::ninePoint(std::size_t nx, std::size_t ny, const NinePointCoefficients& c,
                                       std::string name) {
  std::vector<Entry> entries = crossEntries(c);
  entries.insert(entries.end(), {{-1, -1, 0, &c.southWest, "southWest"},
                                 {1, -1, 0, &c.southEast, "southEast"},
                                 {-1, 1, 0, &c.northWest, "northWest"},
                                 {1, 1, 0, &c.northEast, "northEast"}});
  return StencilMatrix(Kind::NinePoint, nx, ny, 1, entries, std::move(name));
}

StencilMatrix StencilMatrix::sevenPoint(std::size_t nx, std::size_t ny, std::size_t nz,
                                        const SevenPointCoefficients& c, std::string name) {
  std::vector<Entry> entries = crossEntries(c);
  entries.insert(entries.end(), {{0, 0, -1, &c.down, "down"}, {0, 0, 1, &c.up, "up"}});
  return StencilMatrix(Kind::SevenPoint, nx, ny, nz, entries, std::move(name));
}

StencilMatrix StencilMatrix::poisson2D(std::size_t nx, std::size_t ny, std::string name) {
  const std::size_t n = stream::checkedGridSize("StencilMatrix::poisson2D(\"" + name + "\")", nx, ny);
  const std::vector<float> four(n, 4.0f), minusOne(n, -1.0f);
  return fivePoint(nx, ny, {four, minusOne, minusOne, minusOne, minusOne}, std::move(name));
}

StencilMatrix StencilMatrix::poisson3D(std::size_t nx, std::size_t ny, std::size_t nz, std::string name) {
  const std::size_t n = stream::checkedGridSize("StencilMatrix::poisson3D(\"" + name + "\")", nx, ny, nz);
  const std::vector<float> six(n, 6.0f), m(n, -1.0f);
  return sevenPoint(nx, ny, nz, {six, m, m, m, m, m, m}, std::move(name));
}

StencilMatrix StencilMatrix::fromCsr(const Csr& csr, std::size_t nx, std::size_t ny, std::size_t nz,
                                     std::string name) {
  const std::string title = "StencilMatrix::fromCsr(\"" + name + "\")";
  csr.validate(title);
  const std::size_t n = stream::checkedGridSize(title, nx, ny, nz);
  if (n == 0 || csr.rows != n || csr.cols != n) {
    throw std::invalid_argument(title + ": the matrix is " + std::to_string(csr.rows) + "x" +
                                std::to_string(csr.cols) + ", the " + gridText(nx, ny, nz, true) + " grid needs " +
                                std::to_string(n) + "x" + std::to_string(n));
  }
  // Coefficient arrays indexed by (dx + 1) + 3 (dy + 1) + 9 (dz + 1).
  std::vector<std::vector<float>> c(27);
  bool needs3D = nz > 1, needsCorners = false;
  for (std::size_t r = 0; r < n; ++r) {
    const long long rx = (long long)(r % nx), ry = (long long)(r / nx % ny), rz = (long long)(r / (nx * ny));
    for (std::int64_t k = csr.rowPtr[r]; k < csr.rowPtr[r + 1]; ++k) {
      const std::size_t col = std::size_t(csr.colIdx[std::size_t(k)]);
      const long long dx = (long long)(col % nx) - rx, dy = (long long)(col / nx % ny) - ry,
                      dz = (long long)(col / (nx * ny)) - rz;
      const bool neighbour = dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && dz >= -1 && dz <= 1;
      const bool corner = dx != 0 && dy != 0;
      const bool acrossZ = dz != 0;
      if (!neighbour || (acrossZ && (dx != 0 || dy != 0))) {
        throw std::invalid_argument(title + ": entry (" + std::to_string(r) + ", " + std::to_string(col) +
                                    ") couples grid points (" + std::to_string(rx) + "," + std::to_string(ry) + "," +
                                    std::to_string(rz) + ") and (" + std::to_string(rx + dx) + "," +
                                    std::to_string(ry + dy) + "," + std::to_string(rz + dz) +
                                    "), which no 5-, 7- or 9-point stencil does");
      }
      needsCorners = needsCorners || corner;
      needs3D = needs3D || acrossZ;
      auto& slot = c[std::size_t((dx + 1) + 3 * (dy + 1) + 9 * (dz + 1))];
      if (slot.empty()) slot.assign(n, 0.0f);
      slot[r] += float(csr.values[std::size_t(k)]);
    }
  }
  if (needs3D && needsCorners) {
    throw std::invalid_argument(title + ": the matrix couples both z-neighbours and in-plane diagonal "
                                "neighbours; StencilMatrix has 5-, 9-point (2D) and 7-point (3D) stencils only");
  }
  auto at = [&](int dx, int dy, int dz) {
    auto& v = c[std::size_t((dx + 1) + 3 * (dy + 1) + 9 * (dz + 1))];
    if (v.empty()) v.assign(n, 0.0f);
    return v;
  };
  if (needs3D) {
    return sevenPoint(nx, ny, nz,
                      {at(0, 0, 0), at(-1, 0, 0), at(1, 0, 0), at(0, -1, 0), at(0, 1, 0), at(0, 0, -1), at(0, 0, 1)},
                      std::move(name));
  }
  if (needsCorners) {
    return ninePoint(nx, ny,
                     {at(0, 0, 0), at(-1, 0, 0), at(1, 0, 0), at(0, -1, 0), at(0, 1, 0), at(-1, -1, 0), at(1, -1, 0),
                      at(-1, 1, 0), at(1, 1, 0)},
                     std::move(name));
  }
  return fivePoint(nx, ny, {at(0, 0, 0), at(-1, 0, 0), at(1, 0, 0), at(0, -1, 0), at(0, 1, 0)}, std::move(name));
}

void StencilMatrix::apply(const stream::Vector& x, stream::Vector& y) const { m_banded.applyAs(title(), x, y); }

void StencilMatrix::diagonal(stream::Vector& d) const { m_banded.copyDiagonal(title(), d); }

void StencilMatrix::residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                          stream::Vector& r) const {
  m_banded.residualAs(title(), b, x, r);
}

}  // namespace texstream::linalg
