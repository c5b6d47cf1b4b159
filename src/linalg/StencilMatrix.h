#pragma once
// texstream::linalg::StencilMatrix: the operator of a regular-grid stencil with a
// coefficient per grid point and stencil entry: 2D 5-point, 2D 9-point, 3D 7-point.
// Grid point (x, y, z) is element i = x + nx (y + ny z) (x fastest): the 3D grid is unrolled
// into the linear vector layout as Frantic Films did (Batty 2003: "data laid out left to
// right and wrapping at the end of each line", one texture per stencil entry).
//   (A u)_i = center_i u_i + west_i u_{x-1} + east_i u_{x+1} + south_i u_{y-1} + north_i u_{y+1}
//             [+ down_i u_{z-1} + up_i u_{z+1}]  [+ southWest_i u_{x-1,y-1} + ...]
// Neighbours outside the grid are ignored (Dirichlet): their coefficients are zeroed when
// building, so a west coefficient at x = 0 never reaches the previous grid row.
// Stored as a BandedMatrix (Krüger & Westermann §44.2.2): one diagonal per stencil entry.
#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/StoredMatrix.h>

#include <string>
#include <vector>

namespace texstream::linalg {

struct Csr;

/// Each vector has nx * ny (* nz) values, one per grid point in x-fastest order.
struct FivePointCoefficients {
  std::vector<float> center, west, east, south, north;
};
struct NinePointCoefficients {
  std::vector<float> center, west, east, south, north, southWest, southEast, northWest, northEast;
};
struct SevenPointCoefficients {
  std::vector<float> center, west, east, south, north, down, up;
};

class StencilMatrix : public StoredMatrix {
 public:
  enum class Kind { FivePoint, NinePoint, SevenPoint };

  static StencilMatrix fivePoint(std::size_t nx, std::size_t ny, const FivePointCoefficients& c, std::string name);
  static StencilMatrix ninePoint(std::size_t nx, std::size_t ny, const NinePointCoefficients& c, std::string name);
  static StencilMatrix sevenPoint(std::size_t nx, std::size_t ny, std::size_t nz, const SevenPointCoefficients& c,
                                  std::string name);
  /// -Δ with h = 1 (SPD): diagonal 4, neighbours -1 (same matrix as Csr::poisson2D).
  static StencilMatrix poisson2D(std::size_t nx, std::size_t ny, std::string name);
  /// -Δ with h = 1 (SPD): diagonal 6, neighbours -1 (same matrix as Csr::poisson3D).
  static StencilMatrix poisson3D(std::size_t nx, std::size_t ny, std::size_t nz, std::string name);
  /// A CSR matrix (validated) on an nx x ny x nz grid whose entries all couple grid
  /// neighbours of one stencil: 7-point when some entry couples z-neighbours, 9-point
  /// when some couples diagonal neighbours in a plane (nz = 1 only), 5-point otherwise.
  /// Throws std::invalid_argument naming the first entry that fits no stencil.
  static StencilMatrix fromCsr(const Csr& csr, std::size_t nx, std::size_t ny, std::size_t nz, std::string name);

  /// y = A x: x has nx ny nz elements (any layout), y as many in Layout::forSize.
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// y = A x and epilogue(y . x) in one dispatch on the compute backend (BandedMatrix's).
  void applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const override {
    m_banded.applyAndDotAs(title(), x, y, epilogue);
  }
  /// r = b - A x in double-float arithmetic (BandedMatrix's kernel).
  void residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x, stream::Vector& r) const override;
  bool hasResidualInDoubleFloat() const override { return true; }
  /// d = the center coefficients.
  void diagonal(stream::Vector& d) const override;
  double bytesPerApply() const override { return m_banded.bytesPerApply(); }
  double flopsPerApply() const override { return m_banded.flopsPerApply(); }

  std::size_t nx() const { return m_nx; }
  std::size_t ny() const { return m_ny; }
  std::size_t nz() const { return m_nz; }
  Kind kind() const { return m_kind; }
  /// The diagonals actually stored (entries reaching outside a small grid are dropped).
  const BandedMatrix& banded() const { return m_banded; }

 private:
  struct Entry {
    int dx, dy, dz;
    const std::vector<float>* values;
    const char* label;
  };
  StencilMatrix(Kind kind, std::size_t nx, std::size_t ny, std::size_t nz, const std::vector<Entry>& entries,
                std::string name);
  /// The centre and the four in-plane neighbours, which every kind has.
  template <class Coefficients>
  static std::vector<Entry> crossEntries(const Coefficients& c);

  Kind m_kind = Kind::FivePoint;
  std::size_t m_nx = 0, m_ny = 0, m_nz = 0;
  BandedMatrix m_banded;
};

}  // namespace texstream::linalg
