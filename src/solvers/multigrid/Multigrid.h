#pragma once
// texstream::solvers::Multigrid: the regular-grid multigrid solver of Bolz et al. 2003, §4.2,
// entirely on the GPU, for a 3x3-per-node operator with variable coefficients (GridStencil,
// or a LayeredStencil built on the GPU): Poisson and Helmholtz problems with Dirichlet,
// Neumann or mixed boundaries.
//
//  - Layout: every level is a LayeredGrid (four parts of the grid in RGBA, one-texel
//    borders kept in sync inside the kernels, or by Bolz's copy passes: BorderUpdate).
//  - Transfers: bilinear interpolation S and full-weighting projection P = 1/4 S^T.
//  - Coarse operators: A_2h = P A_h S, composed on the GPU (couplings into fixed nodes
//    dropped first; a coarse node is fixed only when its support holds no free fine
//    node, so constants stay in the coarse space next to Neumann walls between fluid and
//    fixed nodes; Bolz fixes the coarse Dirichlet boundary instead, the same thing when
//    the fixed nodes are the grid's edge).
//  - Smoother: weighted Jacobi with eta1 pre- and eta2 post-sweeps. Bolz uses omega = 2/3
//    (the best weight in 1D, Briggs et al. 2000, ch. 2); the default here is 4/5, the best
//    weight for the 2D 5-point Laplacian (smoothing factor 3/5 instead of 2/3;
//    docs/performance.md and tests/solvers/multigrid/multigrid_convergence.cpp).
//  - Coarsest level (at most coarsestNodes nodes: 9x9 for (2^j + 1)^2 and 2^j grids):
//    solved exactly by default (its inverse, or pseudo-inverse for singular problems,
//    computed on the CPU when the hierarchy is built; one pass), or by coarseIterations
//    weighted Jacobi sweeps as Bolz does ("we will use Jacobi iteration for the coarsest
//    level solve as well"), which is also the fallback for thin grids that leave more
//    than 1024 nodes there.
//  - Cycles: V (Bolz's pseudo-code), W (mu = 2), and full multigrid (FMG: the right-hand
//    side projected to the coarsest level, then interpolated up with one cycle per level).
//  - Fewer passes and bytes per cycle, the mathematics unchanged (always on): a uniform
//    stencil wherever the operator is constant on levels of at least
//    MultigridOptions::constantStencilTexels texels (LayeredStencil.h), the coarse level's
//    first sweep written by the projection, the correction evaluated inside the first
//    post-smoothing sweep (when there is one), and on the compute backend the coarse levels
//    of a V-cycle in one dispatch (the finest one with at most 2048 nodes that fits in a
//    workgroup's shared memory, with all coarser ones; multigrid/block_cycle.glsl). With
//    borders in kernel a V(2,2) level below the finest takes 5 passes: one pre-sweep (the
//    first came with its right-hand side), the residual, the projection (with the coarser
//    level's first sweep), correction and sweep, one more sweep. On the compute backend
//    with borders in kernel it takes 2 dispatches (multigrid/sweep_tile.glsl: up to four
//    sweeps of a tile in shared memory, each with a halo relaxed redundantly): the
//    pre-sweeps with the residual and its projection, then the correction with the
//    post-sweeps; Jacobi sweeps elsewhere (relax, the coarsest level's) run four a dispatch.
//  - Fixed (Dirichlet) nodes take x = b (identity rows); free nodes may couple to them.
//  - Singular pure-Neumann problems (null space = constants on free nodes): the right-hand
//    side is projected to zero mean before solving, the solution returned with zero mean,
//    the coarsest solve keeps zero mean.
// Any grid size works (coarse grids have n / 2 + 1 nodes); (2^j + 1)^2 grids and 2^j grids
// waste no texels, other sizes some (the splits are multiples of 2^(levels - 1)).
//
// A Multigrid is an IterativeSolver (IterativeSolver.h): solve(b, x, options) cycles to the
// tolerance on plain vectors; layeredSolver() does the same on layered fields. As CG's
// preconditioner (MGPCG): MultigridPreconditioner.h.
//
//   GridStencil A = GridStencil::poisson(1025, 1025, GridBoundaries::all(Boundary::Dirichlet), "A");
//   Multigrid mg(A, {.preSmoothing = 2, .postSmoothing = 2});
//   SolverStatus s = mg.solve(b, x, {.tolerance = 1e-6f});   // b, x: 1025^2 elements
#include <texstream/gl/Texture.h>
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>
#include <texstream/solvers/multigrid/LayeredStencil.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/EnumNames.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace texstream::solvers {
inline namespace multigrid {

enum class CycleType { V, W };
enum class CoarseSolve { Direct, Jacobi };
/// How the one-texel borders of the layered fields are brought in sync after a kernel
/// writes a field that is read at neighbours (x after a sweep, an interpolation or the
/// coarse solve; r before the projection):
enum class BorderUpdate {
  /// Bolz §4.2: a copy pass over the border strips after each such kernel.
  CopyPasses,
  /// The kernel itself writes the border: a strip texel evaluates each duplicate's node at
  /// its owner (bit-identical values, one pass fewer per kernel). Setup passes
  /// (composition) still copy.
  InKernel,
};
/// Which residual a solve checks against its tolerance.
enum class ResidualCheck {
  /// ||b - A x|| computed from x each check. In float32 it cannot fall below about
  /// 8 eps ||x|| / ||b|| (x itself is rounded): ~1e-6 at 500^2, ~5e-6 at 1025^2 for a
  /// random b; a solve that stops gaining there ends as MaxIterations, "stagnated".
  True,
  /// Defect correction (Briggs et al. 2000, ch. 5): each cycle solves A c = r from c = 0,
  /// then x += c and r -= A c. r is the recurrence residual, as in CG's stopping test
  /// (ConjugateGradient.h), and keeps falling below the float32 floor of the true one.
  Recurrence,
};

/// Names for command lines, panels and reports (stream/EnumNames.h): "V" | "W",
/// "direct" | "jacobi", "copy" | "kernel".
std::span<const stream::EnumName<CycleType>> cycleTypeNames();
std::span<const stream::EnumName<CoarseSolve>> coarseSolveNames();
std::span<const stream::EnumName<BorderUpdate>> borderUpdateNames();
inline const char* cycleName(CycleType c) { return stream::nameOf(cycleTypeNames(), c); }
inline const char* coarseSolveName(CoarseSolve c) { return stream::nameOf(coarseSolveNames(), c); }
inline const char* borderUpdateName(BorderUpdate b) { return stream::nameOf(borderUpdateNames(), b); }

struct MultigridOptions {
  CycleType cycle = CycleType::V;
  int preSmoothing = 2;         ///< eta1 (>= 0)
  int postSmoothing = 2;        ///< eta2 (>= 0)
  float omega = 0.8f;           ///< Jacobi weight, in (0, 2) (Bolz: 2/3)
  /// Kept for Bolz's method and for its users: the fluid demo's --coarse / "coarse solve"
  /// setting (and its presets), the convergence test of Bolz's own cycle; Jacobi sweeps
  /// change the results (an approximate coarsest solve), and singular coarsest operators
  /// beyond the constants need them.
  CoarseSolve coarseSolve = CoarseSolve::Direct;
  /// In the kernels: the same values as the copy passes with fewer passes; faster on the
  /// compute backend at every size measured, about even on the fragment backend
  /// (docs/performance.md). Kept for its users: the fluid demo's --border / "border sync"
  /// setting (and presets that name it), and Bolz's copy passes as the bench's
  /// multigrid.vcycle / multigrid.solve / fluid.step rows that docs/performance.md and
  /// docs/platforms.md cite beside the .inkernel ones.
  BorderUpdate border = BorderUpdate::InKernel;
  /// Jacobi sweeps of CoarseSolve::Jacobi (>= 1); the fluid demo's --coarse-iterations.
  int coarseIterations = 20;
  /// Constant-coefficient fast path (LayeredStencil.h): on levels of at least this many
  /// texels, texels whose nine entries equal the level's reference stencil read it from
  /// uniforms instead of nine textures (the same results). It saves bandwidth (3 instead of
  /// 11 RGBA32F fields read per texel of a sweep); on the short passes of smaller levels the
  /// flag and the second round of fetches next to unflagged texels cost more than that.
  /// Kept for the tests: 0 puts every level on the fast path, so that grids small enough
  /// to test (tests/solvers/multigrid/multigrid_fastpath.cpp) exercise the path that large
  /// grids take by default.
  int constantStencilTexels = 65536;
  /// The same for the tiled sweeps (compute backend, borders in the kernels): their tiles
  /// whose every texel is flagged run a program that reads x and b only and holds no
  /// stencil, which pays on levels of every size; the ring of tiles at the texture's edge
  /// and tiles touching unflagged texels keep the stencil textures.
  int tiledConstantStencilTexels = 0;
  /// A tiled dispatch of at least this many tiles runs those whose texels are all flagged
  /// by a second program that holds no stencil (multigrid/sweep_tile.glsl's UNIFORM_TILE).
  /// On an H200 the second program's workgroups start after the first's, so on fewer
  /// tiles, where the edge tiles' workgroups set the time, it only adds a dispatch's
  /// latency; from 1024 tiles (the 4097^2 V-cycle's two finest levels) it pays
  /// (docs/performance.md). 0 in the tests, whose grids are small.
  int uniformProgramTiles = 1024;
  // Fixed when the hierarchy is built:
  int maxLevels = 0;            ///< 0: as many as coarsestNodes allows
  /// Coarsen while the coarsest level has more nodes (>= 4). The default stops at 9x9 for
  /// (2^j + 1)^2 and 2^j grids: the direct solve of 81 nodes costs about what a 5x5 one
  /// does, and the cycle has one level (7 passes of a V(2,2) cycle) less.
  int coarsestNodes = 81;
  // How solve() iterates (the cycles above are its iterations):
  /// Begin with one full-multigrid pass (replaces the initial guess; counts as a cycle).
  bool fullMultigrid = false;
  ResidualCheck residualCheck = ResidualCheck::True;
};
/// Throws std::invalid_argument naming the bad field.
void validate(const MultigridOptions& o);

/// The unset fields of a solve's options: 100 cycles, a check after every cycle (a cycle
/// costs many passes and a few cycles converge, so a check is cheap beside it).
inline constexpr IterationDefaults kMultigridDefaults{100, 1};

class Multigrid : public IterativeSolver {
 public:
  /// Uploads A (GridStencil::validate) and builds the hierarchy on the GPU. A singular
  /// problem is recognised by GridStencil::hasConstantNullSpace().
  explicit Multigrid(const GridStencil& A, const MultigridOptions& options = {});
  /// For an operator built on the GPU: `fine` must live on fineGrid(nx, ny, options).
  /// `singular`: A 1 = 0 on the free nodes (pure Neumann), handled as above.
  Multigrid(LayeredStencil fine, bool singular, const MultigridOptions& options = {});
  /// The finest LayeredGrid of an nx x ny hierarchy for these options.
  static LayeredGrid fineGrid(int nx, int ny, const MultigridOptions& options = {});

  Multigrid(Multigrid&&) noexcept = default;
  Multigrid& operator=(Multigrid&&) noexcept = default;

  /// Replaces the finest operator (same grid) and recomposes the coarse ones.
  void setOperator(LayeredStencil fine, bool singular);
  /// Changes cycle, smoothing, omega, the coarse solve, borders and constantStencilTexels
  /// (not maxLevels/coarsestNodes).
  void setOptions(const MultigridOptions& options);
  const MultigridOptions& options() const { return m_options; }

  int levels() const { return int(m_levels.size()); }
  const LayeredGrid& grid(int level = 0) const { return m_levels.at(std::size_t(level)).grid; }
  const LayeredStencil& op(int level = 0) const { return m_levels.at(std::size_t(level)).A; }
  bool singular() const { return m_singular; }
  /// Free nodes of the finest level.
  std::size_t freeNodes() const { return m_freeNodes; }
  const std::string& name() const { return m_name; }
  /// Where V-cycles switch to the one-dispatch block cycle (compute backend):
  /// level -1 when no level fits; nodes of the block levels, and how many of them take
  /// their stencil from the level's reference (the rest read it from a texture).
  struct BlockCycleInfo {
    int level = -1;
    std::size_t nodes = 0;
    std::size_t constantNodes = 0;
  };
  /// (Of the cycles on the current backend and options: with the tiled sweeps the block
  /// starts at a coarser level.)
  BlockCycleInfo blockCycleInfo() const { return block().info; }
  /// Whether cycles on the current backend run the tiled sweeps (compute backend, borders
  /// in kernel, a GL with 256 invocations a workgroup): 2 dispatches a level and cycle.
  bool tiledSweeps() const;
  /// Sweeps one tiled dispatch runs at most on `level` (4; 2 with 16 x 16 workgroups).
  int maxTileSweeps(int level = 0) const;
  /// The side of the tiled sweeps' workgroups on `level`.
  int tileThreads(int level) const;
  /// Tiles of the tiled dispatches run on `level` since the operator was set, summed over
  /// its distinct dispatches: those of the program that reads the stencil textures, and the
  /// uniform ones (every texel owning its nodes and flagged constant: x and b read only).
  struct TileCounts {
    long long stencil = 0, uniform = 0;
  };
  TileCounts tileCounts(int level) const;

  // The finest level's layered fields (grid(0).layout()): write rhs() (border not needed)
  // and solution() (border in sync, e.g. from LayeredGrid::layer), then cycle.
  stream::Vector& rhs() { return m_levels[0].b; }
  stream::Vector& solution() { return m_levels[0].x; }
  const stream::Vector& solution() const { return m_levels[0].x; }

  /// One cycle (options().cycle) on solution() for rhs(); zeroGuess: solution() is taken
  /// as zero (not read). Fixed nodes get x = b.
  void cycle(bool zeroGuess = false);
  /// Full multigrid: overwrites solution() with the FMG result for rhs().
  void fullMultigrid();
  /// `sweeps` weighted Jacobi sweeps (options().omega) on the finest level only: plain
  /// Jacobi iteration, for comparison with the cycles.
  void relax(int sweeps);
  /// Sets x = b at fixed nodes of solution() (Dirichlet values), border kept in sync.
  void imposeFixed();
  /// Shifts a layered field of grid(0) to zero mean over the free nodes (border included).
  void removeMean(stream::Vector& layered);
  /// ||b - A x|| over free nodes into out.x (GPU; no read-back).
  void residualNorm(stream::Scalar& out);
  /// The same, read back (blocking).
  double residualNorm();
  /// ||rhs()|| over free nodes (blocking).
  double rhsNorm();

  // As an IterativeSolver, solve(b, x, options) solves A x = b for plain vectors of nx ny
  // elements (node (i, j) at i + nx j) by cycles (options: kMultigridDefaults; tolerance on
  // the relative residual over the free nodes, as options().residualCheck says); x is the
  // initial guess (its fixed nodes are overwritten with b). Throws gl::Error on size
  // mismatches, std::invalid_argument on bad options; failures are in the status. x may be
  // b (both are copied into the grid before the cycles): the solution replaces b.
  /// The same solve on rhs() and solution() themselves (the right-hand side is made
  /// zero-mean first for singular problems, the solution after). Fixed mode
  /// (IterativeOptions::fixedIterations) runs the cycles on solution() as it is: the
  /// right-hand side taken as consistent, no zero-mean projections, no read-back unless a
  /// check is due.
  SolverStatus solveLayered(const IterativeOptions& options = {});
  /// This multigrid as an IterativeSolver of layered fields of grid(0) (border in sync)
  /// instead of plain vectors: solve(b, x) copies b and x into rhs() and solution() unless
  /// they are those, runs solveLayered and copies the solution back. This Multigrid must
  /// outlive it and stay where it is.
  std::unique_ptr<IterativeSolver> layeredSolver();

 protected:
  SolverStatus run(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) override;

 private:
  struct Level {
    LayeredGrid grid;
    LayeredStencil A;
    stream::Vector x, b, r;
  };
  void build(LayeredStencil fine);
  void compose(int level);
  /// swept: the first zero-guess sweep was done by the projection from the finer level.
  void cycleAt(int level, bool zeroGuess, bool swept = false);
  void smooth(int level, int sweeps, bool zeroGuess);
  void coarseSolve(int level, bool zeroGuess, bool swept = false);
  /// Whether cycling level `level` from a zero guess begins with a zero-guess sweep (which
  /// the projection into it can then do), and with which omega.
  bool startsWithSweep(int level) const;
  float firstSweepOmega(int level) const;
  /// b_{level+1} (and x_{level+1}'s first sweep when startsWithSweep) from x, b of `level`:
  /// the residual, then its projection.
  void descend(int level, bool sweep);
  /// Whether the kernels of a pass a sweep take level `level`'s constant stencil
  /// (MultigridOptions::constantStencilTexels), and whether the tiled sweeps do
  /// (tiledConstantStencilTexels).
  bool constantPath(int level) const;
  bool tiledConstantPath(int level) const;
  /// A's bind for the kernels of a pass a sweep (constantPath).
  void bindOperator(stream::Pass& pass, int level) const;
  /// Finds the constant stencil of every level that constantPath or (where the GL has the
  /// tiled sweeps and borders are in the kernels) tiledConstantPath puts on it; clears the
  /// others'.
  void refreshConstantStencils();
  /// The coarsest operator's (pseudo-)inverse for the direct coarse solve (CPU, blocking).
  void buildCoarseInverse();
  /// Chooses the block level and packs its levels' stencils (CPU, blocking).
  void buildBlockData();
  bool useBlockCycle() const;
  /// cycleAt(blockLevel) and everything below it, one dispatch.
  void blockCycle(bool zeroGuess);
  /// b_{level+1} = P r_level; copies r's border first unless it is already in sync.
  void restrictResidual(int level, bool rInSync = false);
  /// Defines BORDER_IN_KERNEL on the pass, or copies the border of `field` after it (then).
  bool inKernel() const { return m_options.border == BorderUpdate::InKernel; }
  void border(int level, stream::Vector& field);
  void interpolate(int level, bool correct);
  enum class TileStep {
    Sweeps,    ///< `sweeps` sweeps of x
    Correct,   ///< x += S x_{level+1}, then the sweeps
    Restrict,  ///< the sweeps, then b_{level+1} = P (b - A x) (and x_{level+1}'s first sweep: coarseSweep)
  };
  /// One dispatch of `sweeps` (<= maxTileSweeps()) sweeps on `level` with `step`.
  void sweepTiles(int level, int sweeps, bool zeroGuess, TileStep step, bool coarseSweep);
  /// The tiles of one tiled dispatch (level, workgroup side, halo, origin), split into
  /// those that need the stencil textures (the outer ring first) and the uniform ones
  /// (multigrid/tile_classes.glsl), each list one texel a tile (x, y), 1024 a row.
  struct TileSplit {
    int level = 0, threads = 0, halo = 0, origin = 0;
    bool projects = false;  ///< TileStep::Restrict
    int stencilTiles = 0, uniformTiles = 0;
    gl::Texture stencilList, uniformList;
  };
  /// The split of this dispatch's tiles: found on its first use after the flags changed
  /// (one classification pass and a read-back of one value a tile).
  const TileSplit& tileSplit(int level, int threads, int halo, int origin, bool projects, int tilesX, int tilesY);
  /// x += S x_{level+1}, then one post-smoothing sweep, in one pass.
  void correctAndSmooth(int level);
  void residual(int level);
  /// x += c (solution, border included) and r -= A c (owned free nodes), one pass.
  void defectUpdate(stream::Vector& x, stream::Vector& r);
  void maskFree(int level, const stream::Vector& x, stream::Vector& out, bool ones = false) const;

  std::string m_name;
  MultigridOptions m_options;
  bool m_singular = false;
  std::size_t m_freeNodes = 0;
  std::vector<Level> m_levels;
  stream::Vector m_coarseInverse;  ///< empty: no direct coarse solve
  static constexpr int kMaxBlockLevels = 8;
  /// The block levels' packed stencils (3 texels a node) and constant-stencil flags.
  struct BlockData {
    BlockCycleInfo info;                ///< info.level -1: no block cycle
    gl::Texture coefficients;           ///< stencils, then flags
    std::vector<int> coefficientOffsets;  ///< first texel of each block level
    int flagOffset = 0;                 ///< first texel of the flags
    std::vector<float> reference;       ///< each block level's reference stencil, 9 entries
  };
  /// [0]: for cycles with a kernel a sweep; [1]: for the tiled sweeps, where it starts at a
  /// coarser level than [0] (else unused).
  BlockData m_blocks[2];
  BlockData packBlock(int start, std::span<const GridStencil> stencils) const;
  /// The block data of the cycles on the current backend and options.
  const BlockData& block() const;
  gl::Texture m_blockInverse;                   ///< the coarsest inverse in node order, 4 columns a texel
  int m_tileThreads = 0;                        ///< the tiled sweeps' workgroup side; 0: none
  long long m_sharedBytes = 0;                  ///< GL_MAX_COMPUTE_SHARED_MEMORY_SIZE
  std::vector<TileSplit> m_tileSplits;          ///< of the dispatches run since the flags changed
  stream::Scalar m_scalar;
};

}  // namespace multigrid
}  // namespace texstream::solvers
