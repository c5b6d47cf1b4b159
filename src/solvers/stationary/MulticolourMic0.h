#pragma once
// texstream::solvers::MulticolourMic0: the modified incomplete Cholesky preconditioner
// MIC(0) of the pressure operator of a 3D fluid domain (Bridson, "Fluid Simulation for
// Computer Graphics", 2nd ed. 2015, §5.3; Mantaflow's default), in a parallel ordering:
// the factorisation Batty, Wiebe & Houston (2003) ran on the CPU because its substitutions
// are sequential.
//
// Ordering (block multicolour, after Iwashita & Shimasaki 2002): blocks of 4 x 4 x 4 cells
// (one texel column of the packed layout, four rows, four slices) coloured in eight
// colours so that blocks that touch differ; colours in turn, natural order inside a block.
// Each colour of the factorisation and of the two substitutions is one pass (8 + 8 per
// application, 8 to factor), in which every texel recomputes the part of its block it
// depends on (shaders/pressure3d/mic0.glsl). Point-wise colourings (red-black, eight
// colours) lose what makes MIC(0) good: on the tested domains they need 2.5-5x the
// iterations of the natural order, where these blocks need about 1.6x
// (docs/performance.md has the table).
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

#include <string>

namespace texstream::linalg {
class PressureMatrix3D;
}

namespace texstream::solvers {
inline namespace stationary {

struct MulticolourMic0Options {
  float tau = 0.97f;    ///< modification, in [0, 1] (Bridson: 0.97; 0 gives IC(0))
  float sigma = 0.25f;  ///< safety: e_i < sigma A_ii falls back to A_ii, in [0, 1)
};

class MulticolourMic0 : public Preconditioner {
 public:
  using Options = MulticolourMic0Options;
  /// Factors A's current coefficients (8 passes). A must outlive this preconditioner;
  /// after A.update(), call update(). Throws std::invalid_argument for options out of range.
  explicit MulticolourMic0(const linalg::PressureMatrix3D& A, Options options = {});

  /// Refactors from A's coefficients.
  void update();
  /// z = M^-1 r (16 passes); r and z on A's grid; z may be r.
  void apply(const stream::Vector& r, stream::Vector& z) const override;
  /// "mic0 (block multicolour)"
  std::string name() const override { return "mic0"; }
  /// 1 / e per cell (0 where a cell has no equation).
  const stream::GridField3D& inverseFactor() const { return m_inverseFactor; }

 private:
  const linalg::PressureMatrix3D* m_A;
  Options m_options;
  stream::GridField3D m_inverseFactor;
};

}  // namespace stationary
}  // namespace texstream::solvers
