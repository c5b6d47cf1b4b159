#pragma once
// texstream::solvers::EnhancedBlockJacobi: the enhanced block Jacobi Poisson solver of Bajaj
// et al. 2004, §4.1, in 2D and 3D, as a solver and as a smoother.
//
// Problem: A u = f on an nx x ny (x nz) grid of cells, u and f in natural order (element
// i + nx (j + ny k), x fastest, as linalg::StencilMatrix), A = -Δ with h = 1 (scale f by
// h^2): (A u)_p = D u_p - Σ neighbours, where a neighbour beyond the grid reads 0 in a
// Dirichlet direction and u_p in a Neumann one (du/dn = 0; the paper's GL_CLAMP_TO_EDGE), so
// a Neumann side lowers that row's diagonal by one. A is symmetric; positive definite unless
// every direction is Neumann (then A 1 = 0 and f needs zero mean; solutions differ by a
// constant). matrix() gives the same A as a StencilMatrix (for cg, jacobi, residuals).
//
// Method (§4.1.1, §4.1.2, Figure 12): the unknowns of each x-line are packed four to a
// texel; slab s (one texture of ny x nz texels) holds quadruple s of every line. One
// iteration updates the slabs in sequence, s = 0, 1, ..., one pass each:
//   x_s <- (S x)_s + D_s^-1 (Σ j/k neighbours of x_s + f_s)
// where S is the diagonal block of -D^-1 (L + U) (the line couplings) and the j/k
// neighbours are the T blocks. Slabs updated earlier in the sweep are read with their new
// values ("the newly computed unknown values of a slab are immediately used"), the slab's
// own texels with their old ones. (S x)_s is evaluated by a kernel generated from the S block
// (EbjSlabKernel.h), which the caller passes in: src/codegen writes it (codegen::EbjKernel),
// reordered (codegen::EbjOrdering) so that it packs into vec4 MUL/MAD/DP4 instructions, e.g.
// 38 -> 20 for the paper's 40-unknown line. The order also decides which couplings see new
// values, so it changes the convergence rate too (§4.1.3).
// The boundary of the line direction is folded into S and D (the paper's a = -1/5 rows), the
// j/k boundaries are applied when the neighbours are read.
//
// Requirements: nx a multiple of 4 in [4, 256] (put the grid's direction of such a length
// along x); ny, nz >= 1; ny x (nz nx / 4) texels within the GL texture size limit.
//
//   const EbjGrid grid{.nx = 40, .ny = 80, .nz = 80, .x = EbjBoundary::Dirichlet,
//                      .y = EbjBoundary::Neumann, .z = EbjBoundary::Neumann};
//   EnhancedBlockJacobi ebj(grid, codegen::ebjSlabKernel(grid));  // codegen/EbjKernel.h
//   SolverStatus s = ebj.solve(f, u, {.tolerance = 1e-5f});   // solver (IterativeSolver.h)
//   enhancedBlockJacobiSmooth(ebj, f, u, 3);                  // smoother
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/stationary/EbjSlabKernel.h>
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Vector.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace texstream::solvers {
inline namespace stationary {

struct EbjGrid {
  int nx = 0, ny = 0, nz = 1;  ///< cells; nz = 1: 2D (5-point), else 3D (7-point)
  EbjBoundary x = EbjBoundary::Dirichlet, y = EbjBoundary::Dirichlet, z = EbjBoundary::Dirichlet;
  int dimensions() const { return nz == 1 ? 2 : 3; }
  std::size_t cells() const { return std::size_t(nx) * std::size_t(ny) * std::size_t(nz); }
  /// Neumann in every direction of the grid: A is singular (constants).
  bool singular() const;
  /// Throws std::invalid_argument for a grid the solver does not support, naming the size
  /// and the rule: an empty one, or nx not a multiple of 4 in [4, kEbjMaxLineLength].
  void validate() const;
  /// "40x80x80 (x dirichlet, y neumann, z neumann)"
  std::string describe() const;
};

/// The grid's A on the CPU (for references and CPU peers), and on the GPU as a StencilMatrix
/// (5-point in 2D, 7-point in 3D; for cg, jacobi, residuals). Throw std::invalid_argument
/// for an empty grid; any nx works.
linalg::Csr ebjPoissonCsr(const EbjGrid& grid);
linalg::StencilMatrix ebjPoissonMatrix(const EbjGrid& grid, std::string name);
/// One enhanced block Jacobi sweep on the CPU in double, written plainly from the method
/// (Bajaj et al. 2004, §4.1) rather than from the GPU kernel, which the tests and the bench
/// check against it: slab s (line positions permutation[4s .. 4s+3], EbjSlabKernel's
/// convention) of every line gets (line neighbours + j/k neighbours + f) / D from the
/// current values, slabs before s already new; the x-ends fold into D (Neumann: D - 1, no
/// ghost), j/k ghosts read 0 (Dirichlet) or the cell itself (Neumann) with D unchanged.
/// x and f: grid.cells() values, i fastest. Throws std::invalid_argument on a grid the
/// solver refuses (nx not a multiple of 4 ...), a permutation that is not one of 0..nx-1,
/// or sizes that do not match.
void ebjReferenceSweep(const EbjGrid& grid, std::span<const int> permutation, std::span<const double> f,
                       std::vector<double>& x);

/// The unset fields of the solver's options: 1000 iterations, a check every 8 (each: slabs()
/// passes, a reduction, a read-back).
inline constexpr IterationDefaults kEbjDefaults{1000, 8};

/// As an IterativeSolver, solve(f, x, options) solves A u = f (the grid's problem) to the
/// tolerance on the true residual ||f - A x|| / ||f|| (checked in float); x holds the initial
/// guess and receives the result. f and x have size() elements (any layouts). Throws
/// gl::Error on size mismatches, std::invalid_argument on bad options; MaxIterations /
/// NonFinite are reported in the status. f = 0 gives x = 0. For a singular grid f must have
/// zero mean, else the residual stalls at the mean's share (the status message then says
/// so). x may be f (both are packed into the slabs before the sweeps): the solution
/// replaces f. Fixed mode reads nothing back unless a check is due.
class EnhancedBlockJacobi : public IterativeSolver {
 public:
  /// Registers the slab kernel for the grid's x-lines (codegen::ebjSlabKernel(grid) writes
  /// one) and builds the slab textures in the current context. Throws std::invalid_argument
  /// for an unsupported grid (EbjGrid::validate) or a kernel for other lines, and gl::Error
  /// when the textures do not fit.
  EnhancedBlockJacobi(const EbjGrid& grid, EbjSlabKernel kernel, std::string name = "ebj");
  EnhancedBlockJacobi(EnhancedBlockJacobi&&) noexcept = default;
  EnhancedBlockJacobi& operator=(EnhancedBlockJacobi&&) noexcept = default;

  const EbjGrid& grid() const { return m_grid; }
  std::size_t size() const { return m_grid.cells(); }
  int slabs() const { return m_grid.nx / 4; }
  const std::string& name() const { return m_name; }
  const EbjSlabKernel& kernel() const { return m_kernel; }

  /// ebjPoissonMatrix(grid(), name).
  linalg::StencilMatrix matrix(std::string name) const { return ebjPoissonMatrix(m_grid, std::move(name)); }

  // The packed state (what one solve or smoothing call does, step by step). f and x are
  // natural-order vectors of size() elements, any layout.
  /// Packs f (and x, or zero when x is null) into the slab storage.
  void load(const stream::Vector& f, const stream::Vector* x);
  /// `sweeps` iterations on the packed state: slabs() passes each.
  void sweep(int sweeps = 1);
  /// ||f - A x||_2 of the packed state (slabs() passes, a reduction, a blocking read).
  double residualNorm();
  /// ||f||_2 of the packed right-hand side (blocking).
  double rhsNorm();
  /// Unpacks the state into x (natural order, size() elements, any layout).
  void store(stream::Vector& x);
  /// Slab s of the state (ny x nz texels).
  const stream::Vector& slab(int s) const { return m_slabs.at(std::size_t(s)); }
  /// Layout of the packed vectors: ny texels wide, slab s in rows [s nz, (s + 1) nz).
  const stream::Layout& packedLayout() const { return m_packedLayout; }

 private:
  void requireNatural(const char* what, const stream::Vector& v) const;
  void packInto(const stream::Vector& natural, int s, stream::Vector& out, int offset) const;
  void runSlab(int s, bool residual);

  EbjGrid m_grid;
  std::string m_name;
  EbjSlabKernel m_kernel;
  std::vector<int> m_position;  // m_kernel.position()
  stream::Layout m_slabLayout, m_packedLayout;
  std::vector<stream::Vector> m_slabs;
  stream::Vector m_f, m_scratch;  // packed: right-hand side; residual / unpack staging

 protected:
  SolverStatus run(const stream::Vector& f, stream::Vector& x, const IterativeOptions& options) override;
};

/// ebj.solve(f, x, options).
SolverStatus enhancedBlockJacobi(EnhancedBlockJacobi& ebj, const stream::Vector& f, stream::Vector& x,
                                 const IterativeOptions& options = {});

/// `sweeps` enhanced block Jacobi iterations on x in place (a smoother): pack, sweep,
/// unpack; no residual checks, no read-back. Same inputs and errors as the solver.
void enhancedBlockJacobiSmooth(EnhancedBlockJacobi& ebj, const stream::Vector& f, stream::Vector& x, int sweeps);

}  // namespace stationary
}  // namespace texstream::solvers
