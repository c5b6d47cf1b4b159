#pragma once
// texstream::linalg::PressureDomain3D: the cells of a fluid simulation's pressure projection
// on an nx x ny x nz grid, described on the CPU (Batty, Wiebe & Houston 2003, Frantic Films'
// 7-point PCG; Bridson, "Fluid Simulation for Computer Graphics", 2nd ed. 2015, ch. 5).
// Each cell is fluid (an unknown pressure), solid (Neumann: no flow through its faces) or
// air (Dirichlet: p = 0). With h = 1 (the caller scales the right-hand side), the equation of
// a fluid cell i is
//   sum over its open faces f to fluid cells j:  w_f (p_i - p_j)
// + sum over its open faces f to air:           (w_f / theta_f) p_i           = b_i
// where w_f in [0, 1] is the face's open fraction (1 - its solid fraction; 1 unless given)
// and theta_f the fraction of the segment between the two cell centres that lies inside
// the liquid (1 unless a level set is given): the second-order ghost-fluid free surface of
// Gibou, Fedkiw, Cheng & Kang 2002 and Enright, Nguyen, Gibou & Fedkiw 2003, which Frantic
// ran in production. Faces to solids add nothing.
//
// A fluid cell whose faces are all closed has no equation and is treated as solid. A fluid
// region with no open face to air (a closed box of smoke) is a floating component: its
// pressure is defined up to a constant and b must sum to zero over it (the compatibility
// condition, floatingComponents()).
//
// The same coefficients are computed on the GPU by PressureMatrix3D from the uploaded fields;
// toCsr() is their independent CPU form in double (the reference of the tests, the peers'
// matrix in texstream-bench, the PETSc export).
#include <texstream/linalg/Csr.h>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <cstdint>
#include <string>
#include <vector>

namespace texstream::linalg {

enum class CellLabel : std::uint8_t { Fluid = 0, Solid = 1, Air = 2 };
const char* cellLabelName(CellLabel label);

/// The smallest theta the free surface gives a face: a surface closer than this fraction of
/// a cell to a fluid cell's centre counts as this close, bounding the diagonal (Enright et
/// al. 2003 clamp theta the same way).
inline constexpr float kMinSurfaceFraction = 1e-3f;

/// The sides of the box, as PressureDomain3D::outside indexes them.
enum BoxSide { kXLow = 0, kXHigh, kYLow, kYHigh, kZLow, kZHigh };

struct PressureDomain3D {
  int nx = 0, ny = 0, nz = 0;
  /// nx ny nz labels, x fastest: cell (i, j, k) at i + nx (j + ny k).
  std::vector<CellLabel> labels;
  /// What lies beyond each side of the box (BoxSide order): Solid is a closed wall, Air an
  /// open boundary at p = 0 (theta = 1).
  std::array<CellLabel, 6> outside{CellLabel::Solid, CellLabel::Solid, CellLabel::Solid,
                                   CellLabel::Solid, CellLabel::Solid, CellLabel::Solid};
  /// Optional: a signed distance per cell, negative in the liquid. A face between a fluid
  /// cell f and an air cell a gets theta = phi_f / (phi_f - phi_a), clamped to
  /// [kMinSurfaceFraction, 1]. Empty: theta = 1 on every face to air (first order).
  std::vector<float> levelSet;
  /// Optional: the open fractions in [0, 1] of each cell's -x, -y and -z faces, nx ny nz
  /// each (faces on the box's sides: those of the cells at i, j or k = 0; the +x side of the
  /// box is open as its outside label says). Empty: every face fully open.
  std::array<std::vector<float>, 3> faceOpen;

  /// Example domains, the benchmark's and the tests' (x fastest, +z up):
  /// every cell fluid, sides closed except those given as open (air).
  static PressureDomain3D box(int nx, int ny, int nz, std::initializer_list<BoxSide> openSides = {});
  /// A box of smoke open at the top, around a solid sphere of radius n / 6 centred at
  /// (n / 2, n / 2, n / 3) cells.
  static PressureDomain3D smokeAroundSphere(int n);
  /// Liquid at rest in a box open at the top, filled to height fill nz + 0.3 cells, air
  /// above, with the level set phi = z - surface: the free surface lies between cell
  /// centres, so its faces take the second-order coefficients.
  static PressureDomain3D pool(int nx, int ny, int nz, double fill = 0.43);

  std::size_t cells() const { return std::size_t(nx) * std::size_t(ny) * std::size_t(nz); }
  std::size_t cell(int i, int j, int k) const { return std::size_t(i) + std::size_t(nx) * (std::size_t(j) + std::size_t(ny) * std::size_t(k)); }
  /// Throws std::invalid_argument naming `where` and the first problem: a side < 1, a
  /// vector of another length, a label outside Fluid/Solid/Air, a non-finite level set, a
  /// face fraction outside [0, 1], a fluid cell with a non-negative level set beside air, or
  /// no fluid cell at all.
  void validate(const std::string& where) const;

  /// Which neighbour across face f (BoxSide order) of cell (i, j, k), and its coupling.
  struct Face {
    CellLabel label;     ///< the neighbour's label (outside[f] beyond the box)
    std::size_t cell;    ///< the neighbour's index (inside the box only)
    double open;         ///< w_f
    double theta;        ///< fraction of the segment inside the liquid (faces to air)
  };
  Face face(int i, int j, int k, int f) const;
  /// The diagonal of fluid cell (i, j, k): sum of w_f over faces to fluid and w_f / theta_f
  /// over faces to air (0: walled in).
  double diagonal(int i, int j, int k) const;

  /// The matrix over the unknowns (fluid cells with a non-zero diagonal), in double, rows in
  /// x-fastest cell order; unknownOfCell[c] is cell c's row or -1.
  Csr toCsr(std::vector<std::int64_t>* unknownOfCell = nullptr) const;
  /// The unknowns' cells grouped by floating component (connected through open faces, none
  /// open to air); empty when every component touches air.
  std::vector<std::vector<std::size_t>> floatingComponents() const;
};

}  // namespace texstream::linalg
