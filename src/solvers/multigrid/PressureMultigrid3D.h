#pragma once
// texstream::solvers::PressureMultigrid3D: a geometric multigrid V-cycle as the
// preconditioner of CG on the pressure operator of a 3D fluid domain: MGPCG (McAdams,
// Sifakis & Teran 2010, "A parallel multigrid Poisson solver for fluids simulation on large
// grids"), on the flat 3D textures of linalg::PressureMatrix3D.
//  - Levels: cell-centred coarsening to ceil(n / 2) cells a side until the largest side is
//    at most 2. A coarse cell is air if any child is air, else fluid if any child has an
//    equation, else solid (McAdams et al. §4); its operator is the 7-point operator of those
//    labels (first-order at the free surface: the fine level's ghost-fluid diagonal and face
//    fractions are the fine level's alone), built on the GPU by the matrix's own kernel.
//  - Transfers: piecewise-constant prolongation and its transpose times 1/2 as restriction.
//    On walled domains this converges faster than trilinear prolongation, whose weights
//    reach into solid coarse cells (docs/performance.md has the iteration counts).
//  - On the compute backend the coarse levels (from the first whose cells and all coarser
//    ones fit a workgroup's shared memory) cycle in one dispatch, where each of their passes
//    would be pure latency.
//  - Smoother: red-black Gauss-Seidel over-relaxed (SOR: each relaxed cell moves omega times
//    its Gauss-Seidel step), `smoothing` sweeps red then black before the coarse correction
//    and the same number black then red after it, so the cycle is symmetric and CG stays
//    valid (each colour's step is A-self-adjoint for any omega in (0, 2)); on the coarsest
//    level the same sweeps without a coarser one. Over-relaxation is Yavneh's remedy for
//    red-black smoothing of the 3D 7-point Laplacian ("On red-black SOR smoothing in
//    multigrid", SIAM J. Sci. Comput. 17(1), 1996: omega about 1.15); the coarse levels,
//    whose coarsened labels blur the boundary, take a larger one.
//  - Boundary smoothing (McAdams et al. 2010, §4: extra smoothing near the boundary): on
//    every level, `boundarySweeps` more red-black sweeps of the cells in a band of
//    `boundaryWidth` face steps beside a cell without an equation or the grid's side, red
//    first before the pre-smoothing and black first after the post-smoothing, so the cycle
//    stays symmetric. The band is a mask field per level, built at update(); the block
//    cycle marks its levels' bands in shared memory by the same rule.
// Per level and cycle the fragment backend runs one pass a colour of each sweep, the
// residual inside the restriction, and the correction inside the first post-smoothing pass;
// the compute backend runs each whole sweep as one dispatch that marches through the slices
// with the tile in shared memory (shaders/pressure3d/mg_sweep.glsl), the correction inside
// the first post-smoothing sweep, and the restriction one invocation a fine texel
// (mg_restrict_fine.glsl). Both relax the same cells with the same expression.
//
//   PressureMatrix3D A(domain, "p");
//   PressureMultigrid3D M(A);
//   SolverStatus s = cg(A, b, x, {.tolerance = 1e-6f}, &M);
#include <texstream/solvers/Preconditioner.h>
#include <texstream/stream/GridField3D.h>

#include <string>
#include <vector>

namespace texstream::linalg {
class PressureMatrix3D;
}

namespace texstream::solvers {
inline namespace multigrid {

struct PressureMultigrid3DOptions {
  /// Red-black Gauss-Seidel sweeps before and after each coarse correction (>= 1).
  int smoothing = 2;
  /// The over-relaxation of the finest level's sweeps and of the coarse levels', in (0, 2)
  /// (1: plain Gauss-Seidel). 1.15 and 1.3 took MGPCG from 6 to 5 iterations to 1e-4 at 256^3
  /// on every domain of the bench, and from 14 to 11 to 1e-8 around the sphere
  /// (docs/performance.md).
  float omega = 1.15f;
  float coarseOmega = 1.3f;
  /// Red-black sweeps of the boundary band's cells before the pre-smoothing and after the
  /// post-smoothing of each level (>= 0; 0: none), and the band's width in face steps from
  /// a cell without an equation or the grid's side (1 to 3). Off by default: two sweeps on
  /// a band two cells wide save at most one iteration of 4-11 on the bench's domains (CPU
  /// and H200 alike) while each band sweep costs a whole pass, so MGPCG to 1e-4 took 30-60%
  /// longer at 64^3-256^3 on an H200 (docs/performance.md).
  int boundarySweeps = 0;
  int boundaryWidth = 2;
};

class PressureMultigrid3D : public Preconditioner {
 public:
  using Options = PressureMultigrid3DOptions;

  /// Builds the coarse levels from A's current coefficients. A must outlive this
  /// preconditioner; after A.update(), call update(). Throws std::invalid_argument naming
  /// the field for smoothing < 1, omega or coarseOmega outside (0, 2), boundarySweeps < 0 or
  /// boundaryWidth outside [1, 3].
  explicit PressureMultigrid3D(const linalg::PressureMatrix3D& A, Options options = {});

  /// Rebuilds the coarse labels and operators from A (after PressureMatrix3D::update).
  void update();
  /// z = M^-1 r, one V-cycle from z = 0; r and z on A's grid; z may be r.
  void apply(const stream::Vector& r, stream::Vector& z) const override;
  /// "multigrid V(2,2)", with ", boundary 2 x band 2" when there are boundary sweeps
  std::string name() const override;
  const Options& options() const { return m_options; }
  int levels() const { return int(m_levels.size()) + 1; }
  /// The grid of level l (0: A's).
  const stream::GridLayout3D& grid(int level) const;

 private:
  struct Level {
    stream::GridLayout3D grid;
    stream::GridField3D diagonal;   ///< as PressureMatrix3D::diagonalField
    mutable stream::GridField3D r, z;  ///< the level's right-hand side and correction
  };
  void cycle(int level, const stream::Vector& r, stream::Vector& z) const;
  /// One colour (red: 0) of a red-black sweep; of the boundary band's cells alone (band).
  void smooth(int level, const stream::Vector& r, stream::Vector& z, int colour, bool zeroGuess, bool band = false) const;
  /// A whole sweep, `first` colour then the other, as one compute dispatch; from z = 0
  /// (zeroGuess), or after adding the correction from level + 1 (correct); of the boundary
  /// band's cells alone (band).
  void sweep(int level, const stream::Vector& r, stream::Vector& z, int first, bool zeroGuess, bool correct,
             bool band = false) const;
  /// Sweeps of the pre-smoothing (red first; the first from z = 0) and of the
  /// post-smoothing (black first; the first after the coarse correction, if any).
  void preSmooth(int level, const stream::Vector& r, stream::Vector& z) const;
  void postSmooth(int level, const stream::Vector& r, stream::Vector& z, bool correct) const;
  void bindLevel(stream::Pass& pass, int level) const;
  const stream::GridField3D& diagonalOf(int level) const;
  float omegaOf(int level) const { return level == 0 ? m_options.omega : m_options.coarseOmega; }

  /// Compute backend: levels blockLevel and coarser cycle in one dispatch of one workgroup
  /// (shaders/pressure3d/mg_block_cycle.glsl); -1 where the context cannot.
  void blockCycle(int level, const stream::Vector& r, stream::Vector& z) const;

  const linalg::PressureMatrix3D* m_A;
  Options m_options;
  std::vector<Level> m_levels;  ///< levels 1, 2, ... (level 0 is A's)
  std::vector<stream::GridField3D> m_bands;  ///< per level from 0: 1 on the boundary band's cells (with boundary sweeps)
  int m_blockLevel = -1;
  int m_blockThreads = 256;  ///< the block cycle's invocations: the context's most, up to 1024
  bool m_sweepDispatch = false;  ///< whole sweeps as one dispatch (compute backend)
  bool m_fineRestriction = false;  ///< the restriction one invocation a fine texel (compute backend)
};

}  // namespace multigrid
}  // namespace texstream::solvers
