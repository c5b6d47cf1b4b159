#pragma once
// texstream::solvers::MulticolourMic0: the modified incomplete Cholesky preconditioner
// MIC(0) of the pressure operator of a 3D fluid domain (Bridson, "Fluid Simulation for
// Computer Graphics", 2nd ed. 2015, §5.3; Mantaflow's default), in a parallel ordering:
// the factorisation Batty, Wiebe & Houston (2003) ran on the CPU because its substitutions
// are sequential.
//
// Ordering (block multicolour, after Iwashita & Shimasaki 2002): blocks of 4 x 4 x 4 cells
// (one texel column of the packed layout, four rows, four slices), natural order inside a
// block. MIC(0)'s M depends only on which cell of each coupled pair comes first (orderings
// that orient every pair alike give the same factor: Doi 1991, "On parallelism and
// convergence of incomplete LU factorizations"), so what costs iterations is the block
// faces crossed against the natural direction. Along each axis the blocks repeat with a
// period of K blocks (kOrdering.period: at least four, and at most four periods across the
// grid) and a block's colour is the sum of its phases B % K: blocks that touch differ in
// colour, a period is a wavefront in natural order, and only the faces where periods meet
// run backwards. A grid of at most K blocks along each axis gets natural order's M exactly.
// Each colour of the factorisation and of the two substitutions is one pass (Kx + Ky + Kz
// - 2 each), in which every texel recomputes the part of its block it depends on
// (shaders/pressure3d/mic0.glsl), so a texel's work does not grow with K, but a pass costs
// about as much as a whole-grid pass whatever the colour's share (each warp holds a few of
// the colour's texels, each walking its block's cone serially): from 128^3 on an
// application is slower than eight colours' (docs/performance.md). Point-wise
// colourings (red-black, eight colours) need 2.5-5x the iterations of the natural order on
// the tested domains, eight parity colours of these blocks (K = 2) about 1.6x, larger
// blocks (8 x 8 x 4, K = 2) still 1.5x at 64^3; periods of K >= 4 blocks stay under 1.5x
// (tests/solvers/systems/pressure_solver_3d.cpp checks it at 32^3).
//
// M = (E - C_L) E^-1 (E - C_U) with C the couplings -A_ij (L: with earlier cells) and
// E the diagonal factor:
//   e_i = A_ii - sum over earlier neighbours e of (c_ie^2 + tau c_ie s_e) / e_e
// (s_e: e's couplings with later cells other than i, the fill MIC(0) moves to the
// diagonal; tau = 0 is IC(0)), and e_i = A_ii where e_i falls below sigma A_ii.
// M is symmetric positive definite (E > 0), so CG takes it.
//
//   MulticolourMic0 M(A);                                 // A: a PressureMatrix3D
//   SolverStatus s = cg(A, b, x, {.tolerance = 1e-6f}, &M);
#include <texstream/solvers/Preconditioner.h>
#include <texstream/stream/GridField3D.h>

#include <algorithm>
#include <array>
#include <string>

namespace texstream::linalg {
class PressureMatrix3D;
}

namespace texstream::solvers {
inline namespace stationary {

/// The block-multicolour ordering (shaders/pressure3d/mic0.glsl): blocks of cellsX x cellsY x
/// cellsZ cells (cellsX a multiple of 4: whole texels of the packed layout); along each axis
/// the blocks repeat with a period of K blocks, block B in phase B % K, and a block's
/// colour is the sum of its three phases (Kx + Ky + Kz - 2 colours); colours in turn,
/// natural order inside a block.
struct MicBlockOrdering {
  int cellsX, cellsY, cellsZ;
  int minPeriod;  ///< K is at least this many blocks (or all the blocks along the axis)
  int periods;    ///< and at most this many periods fit along the axis
  /// K along an axis of n cells, blocks of `cells` cells.
  constexpr int period(int n, int cells) const {
    const int blocks = (n + cells - 1) / cells;
    const int k = std::max(minPeriod, (blocks + periods - 1) / periods);
    return std::max(1, std::min(blocks, k));
  }
};

struct MulticolourMic0Options {
  float tau = 0.97f;    ///< modification, in [0, 1] (Bridson: 0.97; 0 gives IC(0))
  float sigma = 0.25f;  ///< safety: e_i < sigma A_ii falls back to A_ii, in [0, 1)
};

class MulticolourMic0 : public Preconditioner {
 public:
  using Options = MulticolourMic0Options;
  /// The ordering every instance uses (the CPU references of the tests take it from here).
  static constexpr MicBlockOrdering kOrdering{4, 4, 4, 4, 4};
  /// Factors A's current coefficients (colours() passes). A must outlive this preconditioner;
  /// after A.update(), call update(). Throws std::invalid_argument for options out of range.
  explicit MulticolourMic0(const linalg::PressureMatrix3D& A, Options options = {});

  /// Refactors from A's coefficients.
  void update();
  /// z = M^-1 r (2 colours() passes); r and z on A's grid; z may be r.
  void apply(const stream::Vector& r, stream::Vector& z) const override;
  /// "mic0 (block multicolour)"
  std::string name() const override { return "mic0"; }
  /// K along x, y and z on A's grid, in blocks.
  const std::array<int, 3>& period() const { return m_period; }
  /// Passes a substitution takes: Kx + Ky + Kz - 2.
  int colours() const { return m_period[0] + m_period[1] + m_period[2] - 2; }
  /// 1 / e per cell (0 where a cell has no equation).
  const stream::GridField3D& inverseFactor() const { return m_inverseFactor; }

 private:
  const linalg::PressureMatrix3D* m_A;
  Options m_options;
  std::array<int, 3> m_period{};  ///< K along x, y, z (kOrdering.period on A's grid)
  stream::GridField3D m_inverseFactor;
};

}  // namespace stationary
}  // namespace texstream::solvers
