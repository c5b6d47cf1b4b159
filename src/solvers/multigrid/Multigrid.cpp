// Bolz et al. 2003, §4.2: layered multigrid (V-cycle pseudo-code, weighted Jacobi relaxation,
// interpolation S, projection P = 1/4 S^T, coarse operators P A S composed on the GPU), with
// W-cycles and full multigrid as in Briggs et al. 2000.
#include <texstream/solvers/multigrid/Multigrid.h>

#include <texstream/solvers/multigrid/DenseInverse.h>

#include <texstream/solvers/multigrid/GridTransfer.h>
#include <texstream/solvers/SolveRecorder.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/solvers/StationaryLoop.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>

namespace texstream::solvers {
inline namespace multigrid {

namespace {

// The bits of a float and back, as std::bit_cast does (emscripten 3.1's libc++ has none).
std::uint32_t floatBits(float f) {
  std::uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float floatFromBits(std::uint32_t u) {
  float f = 0;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

using stream::Pass;
using stream::Vector;

/// Largest coarsest level solved directly (a dense inverse of this many nodes squared).
constexpr std::size_t kMaxDirectCoarseNodes = 1024;
/// The block cycle starts at the finest level with at most this many nodes (and that fits
/// in shared memory). One workgroup runs on one multiprocessor, so each of its
/// barrier-separated phases costs about the same whatever the level; where the block
/// should start is a trade measured per GPU (docs/performance.md), and it depends on what a
/// level above the block costs: 5 to 7 passes with a kernel a sweep (65^2 nodes measured
/// best on an H200), 2 dispatches with the tiled sweeps (33^2: the fluid step 2.5% faster
/// at 512^2 and 1024^2, the V-cycle rows unchanged; 65^2 for the pass-per-sweep cycles
/// measured 10% faster than 33^2 at 257^2).
constexpr std::size_t kBlockCycleMaxNodes = 8192;
constexpr std::size_t kTiledBlockCycleMaxNodes = 2048;
/// Weighted Jacobi sweeps in one tiled dispatch (multigrid/sweep_tile.glsl) at most: each
/// sweep widens the halo a workgroup relaxes redundantly by a texel on every side. Four
/// (the fluid's pre-smoothing) measured better than two in two dispatches on an H200
/// (docs/performance.md); 16 x 16 workgroups take two.
constexpr int kMaxTileSweeps = 4;
/// Fewer 32 x 32 tiles than this on a level: 16 x 16 ones there (Multigrid::tileThreads).
constexpr long long kFewTiles = 128;

constexpr stream::EnumName<CycleType> kCycleTypeNames[] = {{CycleType::V, "V", "V"}, {CycleType::W, "W", "W"}};
constexpr stream::EnumName<CoarseSolve> kCoarseSolveNames[] = {{CoarseSolve::Direct, "direct", "direct"},
                                                              {CoarseSolve::Jacobi, "jacobi", "Jacobi (Bolz)"}};
constexpr stream::EnumName<BorderUpdate> kBorderUpdateNames[] = {
    {BorderUpdate::CopyPasses, "copy", "copy passes (Bolz)"}, {BorderUpdate::InKernel, "kernel", "in the kernels"}};

}  // namespace

std::span<const stream::EnumName<CycleType>> cycleTypeNames() { return kCycleTypeNames; }
std::span<const stream::EnumName<CoarseSolve>> coarseSolveNames() { return kCoarseSolveNames; }
std::span<const stream::EnumName<BorderUpdate>> borderUpdateNames() { return kBorderUpdateNames; }

void validate(const MultigridOptions& o) {
  auto bad = [](const std::string& what) { throw std::invalid_argument("MultigridOptions: " + what); };
  if (o.preSmoothing < 0) bad("preSmoothing must be >= 0, got " + std::to_string(o.preSmoothing));
  if (o.postSmoothing < 0) bad("postSmoothing must be >= 0, got " + std::to_string(o.postSmoothing));
  if (!(o.omega > 0.0f && o.omega < 2.0f)) bad("omega must be in (0, 2), got " + formatNumber(o.omega));
  if (o.coarseIterations < 1) bad("coarseIterations must be >= 1, got " + std::to_string(o.coarseIterations));
  if (o.maxLevels < 0) bad("maxLevels must be >= 0 (0: automatic), got " + std::to_string(o.maxLevels));
  if (o.coarsestNodes < 4) bad("coarsestNodes must be >= 4, got " + std::to_string(o.coarsestNodes));
  if (o.constantStencilTexels < 0)
    bad("constantStencilTexels must be >= 0, got " + std::to_string(o.constantStencilTexels));
  if (o.uniformProgramTiles < 0) bad("uniformProgramTiles must be >= 0, got " + std::to_string(o.uniformProgramTiles));
  if (o.tiledConstantStencilTexels < 0)
    bad("tiledConstantStencilTexels must be >= 0, got " + std::to_string(o.tiledConstantStencilTexels));
}

LayeredGrid Multigrid::fineGrid(int nx, int ny, const MultigridOptions& options) {
  validate(options);
  return LayeredGrid::hierarchy(nx, ny, options.maxLevels, options.coarsestNodes)[0];
}

Multigrid::Multigrid(const GridStencil& A, const MultigridOptions& options)
    : m_name(A.name()), m_options(options), m_singular(A.hasConstantNullSpace()) {
  validate(options);
  build(LayeredStencil::upload(A, fineGrid(A.nx(), A.ny(), options)));
}

Multigrid::Multigrid(LayeredStencil fine, bool singular, const MultigridOptions& options)
    : m_name(fine.name()), m_options(options), m_singular(singular) {
  validate(options);
  build(std::move(fine));
}

void Multigrid::setOptions(const MultigridOptions& options) {
  validate(options);
  if (options.maxLevels != m_options.maxLevels || options.coarsestNodes != m_options.coarsestNodes)
    throw std::invalid_argument("Multigrid(\"" + m_name +
                                "\")::setOptions: maxLevels and coarsestNodes are fixed when the hierarchy is built");
  const bool refresh = options.constantStencilTexels != m_options.constantStencilTexels ||
                       options.tiledConstantStencilTexels != m_options.tiledConstantStencilTexels ||
                       options.border != m_options.border;
  m_options = options;
  if (refresh) {
    gl::StateGuard guard;
    refreshConstantStencils();
  }
}

bool Multigrid::constantPath(int l) const {
  const LayeredGrid& g = grid(l);
  return (long long)g.width() * g.height() >= (long long)m_options.constantStencilTexels;
}

bool Multigrid::tiledConstantPath(int l) const {
  const LayeredGrid& g = grid(l);
  return (long long)g.width() * g.height() >= (long long)m_options.tiledConstantStencilTexels;
}

void Multigrid::bindOperator(Pass& pass, int l) const { m_levels[std::size_t(l)].A.bind(pass, constantPath(l)); }

void Multigrid::refreshConstantStencils() {
  std::vector<LayeredStencil*> ops;
  for (int l = 0; l < levels(); ++l) {
    LayeredStencil& A = m_levels[std::size_t(l)].A;
    // The tiled sweeps run where the GL has their workgroups and borders are in the kernels.
    if ((m_tileThreads > 0 && inKernel() && tiledConstantPath(l)) || constantPath(l)) ops.push_back(&A);
    else A.clearConstantStencil();
  }
  LayeredStencil::findConstantStencils(ops);
  m_tileSplits.clear();
}

void Multigrid::setOperator(LayeredStencil fine, bool singular) {
  if (!(fine.grid() == grid(0)))
    throw gl::Error("Multigrid(\"" + m_name + "\")::setOperator: operator on " + fine.grid().describe() +
                    ", the hierarchy's finest grid is " + grid(0).describe());
  m_singular = singular;
  m_levels[0].A = std::move(fine);
  gl::StateGuard guard;
  for (int l = 0; l + 1 < levels(); ++l) compose(l);
  buildCoarseInverse();
  buildBlockData();  // chooses m_tileThreads, which refreshConstantStencils reads
  refreshConstantStencils();
  Vector ones = Vector::temporary(grid(0).layout(), m_name + ".free");
  maskFree(0, ones, ones, true);
  stream::sum(ones, m_scalar);
  m_freeNodes = std::size_t(std::llround(double(m_scalar.read())));
}

void Multigrid::build(LayeredStencil fine) {
  const LayeredGrid fg = fine.grid();
  const std::vector<LayeredGrid> grids = LayeredGrid::hierarchy(fg.nx(), fg.ny(), m_options.maxLevels,
                                                                m_options.coarsestNodes);
  if (!(grids[0] == fg))
    throw gl::Error("Multigrid(\"" + m_name + "\"): operator on " + fg.describe() +
                    ", but these options need the finest grid " + grids[0].describe() + " (use Multigrid::fineGrid)");
  gl::StateGuard guard;
  m_scalar = stream::Scalar(m_name + ".scalar");
  m_levels.clear();
  for (std::size_t l = 0; l < grids.size(); ++l) {
    const std::string tag = m_name + ".L" + std::to_string(l);
    Level level{grids[l], l == 0 ? std::move(fine) : LayeredStencil(grids[l], tag), Vector(grids[l].layout(), tag + ".x"),
                Vector(grids[l].layout(), tag + ".b"), Vector(grids[l].layout(), tag + ".r")};
    m_levels.push_back(std::move(level));
  }
  setOperator(std::move(m_levels[0].A), m_singular);
}

void Multigrid::compose(int l) { composeGalerkin(m_levels[std::size_t(l)].A, m_levels[std::size_t(l) + 1].A); }

void Multigrid::maskFree(int l, const Vector& x, Vector& out, bool ones) const {
  const Level& level = m_levels[std::size_t(l)];
  Pass pass("multigrid/mask_free");
  level.grid.bind(pass);
  if (ones) pass.define("FREE_ONES");
  else pass.input("u_x", x);
  pass.input("u_centre", level.A.centre()).output(out).label("mg mask free").run();
}

void Multigrid::border(int l, Vector& field) {
  if (!inKernel()) m_levels[std::size_t(l)].grid.syncBorder({&field});
}

void Multigrid::smooth(int l, int sweeps, bool zeroGuess) {
  Level& level = m_levels[std::size_t(l)];
  if (tiledSweeps()) {
    for (int done = 0; done < sweeps; done += maxTileSweeps(l))
      sweepTiles(l, std::min(maxTileSweeps(l), sweeps - done), zeroGuess && done == 0, TileStep::Sweeps, false);
    return;
  }
  for (int s = 0; s < sweeps; ++s) {
    Pass pass("multigrid/smooth");
    level.grid.bind(pass);
    bindOperator(pass, l);
    const bool zero = zeroGuess && s == 0;
    if (zero) pass.define("ZERO_GUESS");
    else pass.input("u_x", level.x);
    if (inKernel()) pass.define("BORDER_IN_KERNEL");
    pass.input("u_b", level.b).uniform("u_omega", m_options.omega).output(level.x).label("mg smooth").run();
    border(l, level.x);
  }
}

void Multigrid::residual(int l) {
  Level& level = m_levels[std::size_t(l)];
  Pass pass("multigrid/residual");
  level.grid.bind(pass);
  bindOperator(pass, l);
  if (inKernel()) pass.define("BORDER_IN_KERNEL");
  pass.input("u_x", level.x).input("u_b", level.b).output(level.r).label("mg residual").run();
}

int Multigrid::tileThreads(int l) const {
  // A level that 32 x 32 workgroups cover with fewer than kFewTiles of them cannot fill a
  // data-centre GPU (114 to 144 multiprocessors, one such workgroup each): it is latency,
  // and 16 x 16 workgroups, more of them, each done sooner, finish it sooner. They hold
  // two sweeps a dispatch, not four, so only where the smoothing needs no more.
  if (m_tileThreads < 32 || m_options.preSmoothing > 2 || m_options.postSmoothing > 2) return m_tileThreads;
  const LayeredGrid& g = grid(l);
  const int tile = 32 - 2 * (2 + 2);  // two sweeps with the projection's halo
  const long long tiles = (long long)((g.width() + tile) / tile) * ((g.height() + tile) / tile);
  return tiles < kFewTiles ? 16 : 32;
}

int Multigrid::maxTileSweeps(int l) const { return tileThreads(l) >= 32 ? kMaxTileSweeps : 2; }

bool Multigrid::tiledSweeps() const {
  return m_tileThreads > 0 && inKernel() && stream::Runtime::current().backend() == stream::Backend::Compute;
}

void Multigrid::sweepTiles(int l, int sweeps, bool zeroGuess, TileStep step, bool coarseSweep) {
  Level& level = m_levels[std::size_t(l)];
  const LayeredGrid& g = level.grid;
  const int halo = sweeps + (step == TileStep::Restrict ? 2 : 0);
  const int threads = tileThreads(l), tile = threads - 2 * halo;
  if (tile < 1)
    throw gl::Error("Multigrid(\"" + m_name + "\"): " + std::to_string(sweeps) + " sweeps in one tiled dispatch need more than " +
                    std::to_string(threads) + "^2 invocations");
  Pass pass("multigrid/sweep_tile");
  g.bind(pass);
  level.A.bind(pass, tiledConstantPath(l));
  pass.define("TILE_THREADS", (long long)threads).define("HALO", (long long)halo).define("SWEEPS", (long long)sweeps);
  if (zeroGuess) pass.define("ZERO_GUESS");
  else pass.input("u_x", level.x);
  pass.input("u_b", level.b).uniform("u_omega", m_options.omega);
  // The virtual texels the tiles cover: the texture, and for the projection also the fine
  // texels 2T - 1 of every coarse texel T (from -1 to 2 W_2h - 3).
  int origin = 0, extentX = g.width(), extentY = g.height();
  pass.output(level.x);
  if (step != TileStep::Sweeps) {
    Level& coarse = m_levels[std::size_t(l) + 1];
    coarse.grid.bind(pass, "u_coarse");
    if (step == TileStep::Correct) {
      pass.define("CORRECT").input("u_v", coarse.x).label("mg correct+sweeps");
    } else {
      origin = -1;
      extentX = std::max(g.width(), 2 * coarse.grid.width() - 2) + 1;
      extentY = std::max(g.height(), 2 * coarse.grid.height() - 2) + 1;
      pass.define("RESTRICT").input("u_coarseCentre", coarse.A.centre()).output(coarse.b).label("mg sweeps+restrict");
      if (coarseSweep) pass.define("ZERO_SWEEP").uniform("u_coarseOmega", firstSweepOmega(l + 1)).output(coarse.x);
    }
  } else {
    pass.label("mg sweeps");
  }
  pass.uniform("u_origin", origin, origin);
  const int tilesX = (extentX + tile - 1) / tile, tilesY = (extentY + tile - 1) / tile;
  pass.uniform("u_tiles", tilesX, tilesY);
  if (level.A.fivePoint()) pass.define("FIVE_POINT");
  if ((long long)tilesX * tilesY < (long long)m_options.uniformProgramTiles) {
    pass.workgroups(tilesX, tilesY, 1).run();
    return;
  }
  const TileSplit& split = tileSplit(l, threads, halo, origin, step == TileStep::Restrict, tilesX, tilesY);
  if (split.uniformTiles == 0) {
    pass.workgroups(tilesX, tilesY, 1).run();
    return;
  }
  // The tiles that read the stencil textures (the outer ring, slowest) first, then the
  // uniform ones by their own program, in the same pass: they write other texels.
  pass.define("TILE_LIST").input("u_stencilTiles", split.stencilList).input("u_uniformTiles", split.uniformList);
  if (split.stencilTiles == 0) pass.define("UNIFORM_TILE").workgroups(split.uniformTiles).run();
  else pass.workgroups(split.stencilTiles).alsoDispatch("UNIFORM_TILE", split.uniformTiles).run();
}

const Multigrid::TileSplit& Multigrid::tileSplit(int l, int threads, int halo, int origin, bool projects, int tilesX,
                                                 int tilesY) {
  for (const TileSplit& s : m_tileSplits)
    if (s.level == l && s.threads == threads && s.halo == halo && s.origin == origin && s.projects == projects) return s;
  TileSplit split;
  split.level = l, split.threads = threads, split.halo = halo, split.origin = origin, split.projects = projects;
  const Level& level = m_levels[std::size_t(l)];
  std::vector<float> classes;
  if (tiledConstantPath(l) && level.A.hasConstantStencil()) {
    gl::Texture uniformTiles(tilesX, tilesY, gl::TextureFormat::R32F, m_name + ".uniform_tiles");
    Pass pass("multigrid/tile_classes");
    level.grid.bind(pass);
    level.A.bind(pass);
    pass.define("TILE_THREADS", (long long)threads).define("HALO", (long long)halo);
    if (projects) {
      pass.define("RESTRICT");
      m_levels[std::size_t(l) + 1].grid.bind(pass, "u_coarse");
    }
    pass.uniform("u_origin", origin, origin).output(uniformTiles).workgroups(tilesX, tilesY).label("mg tile classes");
    pass.run();
    classes.resize(std::size_t(tilesX) * std::size_t(tilesY));
    uniformTiles.download(classes.data());
  }
  // The stencil program's tiles in sweep_tile.glsl's order without a list (tileOf: the
  // outer ring, then row by row), the uniform ones row by row.
  std::vector<float> stencilList, uniformList;
  auto add = [&](int x, int y) {
    const bool uniform = !classes.empty() && classes[std::size_t(y) * std::size_t(tilesX) + std::size_t(x)] != 0.0f;
    std::vector<float>& list = uniform ? uniformList : stencilList;
    list.insert(list.end(), {float(x), float(y)});
  };
  for (int x = 0; x < tilesX; ++x) add(x, 0);
  if (tilesY > 1)
    for (int x = 0; x < tilesX; ++x) add(x, tilesY - 1);
  for (int y = 1; y + 1 < tilesY; ++y) {
    add(0, y);
    if (tilesX > 1) add(tilesX - 1, y);
  }
  for (int y = 1; y + 1 < tilesY; ++y)
    for (int x = 1; x + 1 < tilesX; ++x) add(x, y);
  split.stencilTiles = int(stencilList.size() / 2);
  split.uniformTiles = int(uniformList.size() / 2);
  auto listTexture = [&](std::vector<float>& list, const char* what) {
    const int n = std::max(1, int(list.size() / 2)), width = std::min(n, 1024), height = (n + 1023) / 1024;
    list.resize(2 * std::size_t(width) * std::size_t(height), 0.0f);
    gl::Texture t(width, height, gl::TextureFormat::RG32F, m_name + ".L" + std::to_string(l) + what);
    t.upload(list.data());
    return t;
  };
  if (split.uniformTiles > 0) {
    split.stencilList = listTexture(stencilList, ".stencil_tiles");
    split.uniformList = listTexture(uniformList, ".uniform_tiles");
  }
  m_tileSplits.push_back(std::move(split));
  return m_tileSplits.back();
}

Multigrid::TileCounts Multigrid::tileCounts(int l) const {
  TileCounts counts;
  for (const TileSplit& s : m_tileSplits) {
    if (s.level != l) continue;
    counts.stencil += s.stencilTiles;
    counts.uniform += s.uniformTiles;
  }
  return counts;
}

void Multigrid::defectUpdate(Vector& x, Vector& r) {
  Level& level = m_levels[0];
  Pass pass("multigrid/defect_update");
  level.grid.bind(pass);
  bindOperator(pass, 0);
  pass.input("u_x", x).input("u_r", r).input("u_c", level.x).output(x).output(r).label("mg defect update").run();
}

void Multigrid::restrictResidual(int l, bool rInSync) {
  Level& fine = m_levels[std::size_t(l)];
  Level& coarse = m_levels[std::size_t(l) + 1];
  if (!rInSync) fine.grid.syncBorder({&fine.r});
  projectFullWeighting(fine.grid, coarse.grid, fine.r, coarse.A.centre(), coarse.b);
}

void Multigrid::interpolate(int l, bool correct) {
  Level& fine = m_levels[std::size_t(l)];
  const Level& coarse = m_levels[std::size_t(l) + 1];
  interpolateBilinear(fine.grid, coarse.grid, coarse.x, fine.A.centre(), fine.x, correct, inKernel());
}

void Multigrid::coarseSolve(int l, bool zeroGuess, bool swept) {
  Level& level = m_levels[std::size_t(l)];
  if (m_options.coarseSolve == CoarseSolve::Jacobi || m_coarseInverse.empty()) {
    smooth(l, m_options.coarseIterations - (swept ? 1 : 0), zeroGuess && !swept);
    return;
  }
  Pass pass("multigrid/coarse_direct");
  level.grid.bind(pass);
  pass.define("COARSE_TEXELS", (long long)level.grid.width() * level.grid.height());
  if (inKernel()) pass.define("BORDER_IN_KERNEL");
  pass.input("u_b", level.b).input("u_inverse", m_coarseInverse).output(level.x).label("mg coarse solve").run();
  border(l, level.x);
}

void Multigrid::buildCoarseInverse() {
  const Level& level = m_levels.back();
  const std::size_t n = level.grid.nodes();
  if (n > kMaxDirectCoarseNodes) {
    m_coarseInverse = Vector();
    m_blockInverse = gl::Texture();
    return;
  }
  // Dense coarsest operator in double: free rows as stored, fixed rows identity (x = b).
  const GridStencil A = level.A.download();
  const int nx = A.nx(), ny = A.ny();
  std::vector<double> M(n * n, 0.0);
  std::vector<bool> free(n);
  std::size_t freeCount = 0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = std::size_t(j) * nx + i;
      free[k] = !A.isFixed(i, j);
      freeCount += free[k];
      if (!free[k]) {
        M[k * n + k] = 1.0;
        continue;
      }
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int a = i + dx, b = j + dy;
          if (a < 0 || b < 0 || a >= nx || b >= ny) continue;
          M[k * n + std::size_t(b) * nx + std::size_t(a)] += A.coefficient(i, j, dx, dy);
        }
    }
  // Singular (constants on the free nodes): invert A + e e^T with e = 1/sqrt(free) on the
  // free nodes, then project the result to zero mean there (the pseudo-inverse on the
  // range of A for symmetric A).
  if (m_singular && freeCount > 0)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t m = 0; m < n; ++m)
        if (free[k] && free[m]) M[k * n + m] += 1.0 / double(freeCount);
  std::optional<std::vector<double>> inverse = invertDense(std::move(M), n);
  if (!inverse)
    throw gl::Error("Multigrid(\"" + m_name + "\"): the coarsest operator (" + level.grid.describe() +
                    ") is singular beyond the constants; use MultigridOptions::coarseSolve = CoarseSolve::Jacobi");
  std::vector<double>& inv = *inverse;
  if (m_singular && freeCount > 0)
    for (std::size_t m = 0; m < n; ++m) {
      double mean = 0;
      for (std::size_t k = 0; k < n; ++k)
        if (free[k]) mean += inv[k * n + m] / double(freeCount);
      for (std::size_t k = 0; k < n; ++k)
        if (free[k]) inv[k * n + m] -= mean;
    }
  // Stored in the coarsest grid's layered order so that the kernel walks b texel by texel
  // with no per-channel indexing: texel (q, k) holds, in channel c, M[k][node of channel c
  // at b's texel q] where that channel owns its node, else 0 (border duplicates count once).
  // A loop of one b texel and one inverse texel per step (about 25 steps for 5x5 nodes)
  // instead of one node per step with a dynamic channel pick, which made the coarsest
  // solve most of a small V-cycle.
  const LayeredGrid& g = level.grid;
  const int texelCount = g.width() * g.height();
  std::vector<float> texels(4 * std::size_t(texelCount) * n, 0.0f);
  for (int ty = 0; ty < g.height(); ++ty)
    for (int tx = 0; tx < g.width(); ++tx)
      for (int c = 0; c < 4; ++c) {
        if (!g.owns(tx, ty, c)) continue;
        int i = 0, j = 0;
        g.node(tx, ty, c, i, j);
        const std::size_t m = std::size_t(j) * std::size_t(nx) + std::size_t(i);
        const std::size_t q = std::size_t(ty) * std::size_t(g.width()) + std::size_t(tx);
        for (std::size_t k = 0; k < n; ++k) texels[4 * (k * std::size_t(texelCount) + q) + std::size_t(c)] = float(inv[k * n + m]);
      }
  m_coarseInverse = Vector(stream::Layout::withWidth(texels.size(), texelCount), m_name + ".coarse_inverse");
  m_coarseInverse.upload(texels);
  // The same matrix in node order for the block cycle: row k = node k, four columns a texel
  // (a quarter of the fetches of one column a texel; the last texel zero-padded).
  const std::size_t rowTexels = (n + 3) / 4;
  std::vector<float> rows(4 * rowTexels * n, 0.0f);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t m = 0; m < n; ++m) rows[k * 4 * rowTexels + m] = float(inv[k * n + m]);
  m_blockInverse = gl::Texture(int(rowTexels), int(n), gl::TextureFormat::RGBA32F, m_name + ".block_inverse");
  m_blockInverse.upload(rows.data());
}

void Multigrid::buildBlockData() {
  m_blocks[0] = BlockData{};
  m_blocks[1] = BlockData{};
  m_tileThreads = 0;
  const gl::Capabilities& caps = stream::Runtime::current().caps();
  if (!caps.compute) return;
  GLint sharedBytes = 0;
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &sharedBytes);
  m_sharedBytes = sharedBytes;
  const int invocations = caps.maxComputeInvocations, sizeX = caps.maxComputeGroupSide, sizeY = sizeX;
  // The tiled sweeps' workgroup (x of every invocation's texel in shared memory, a vec4):
  // 32 x 32 where the GL allows it, else 16 x 16 (GLES 3.1 guarantees 128 invocations only),
  // and a frame of one slot.
  for (const int threads : {32, 16})
    if (m_tileThreads == 0 && invocations >= threads * threads && sizeX >= threads && sizeY >= threads &&
        sharedBytes >= (threads + 2) * (threads + 2) * 16)
      m_tileThreads = threads;
  // x and b of every block level in shared memory (8 bytes a node) and one flag bit a node;
  // at most 8 levels (uniform arrays) and 8 nodes per invocation of the 1024 (register arrays).
  const std::size_t maxNodes = std::size_t(std::max(0, sharedBytes - 256)) * 8 / 65;
  auto startLevel = [&](std::size_t finestNodes) {
    for (int l = 0; l + 1 < levels(); ++l) {
      std::size_t total = 0;
      for (int m = l; m < levels(); ++m) total += m_levels[std::size_t(m)].grid.nodes();
      if (total <= maxNodes && levels() - l <= kMaxBlockLevels && grid(l).nodes() <= finestNodes) return l;
    }
    return -1;
  };
  // block_cycle.glsl runs one workgroup of 1024 invocations (GLs that allow fewer keep a
  // dispatch a level and sweep down to the coarsest level).
  if (invocations < 1024) return;
  const int passLevel = startLevel(kBlockCycleMaxNodes), tiledLevel = startLevel(kTiledBlockCycleMaxNodes);
  if (passLevel < 0) return;
  // One wait for the GPU for every block level (a blocking read a texture cost a few ms a
  // setOperator, which the fluid demo calls every frame while obstacles are painted).
  std::vector<const LayeredStencil*> ops;
  for (int m = passLevel; m < levels(); ++m) ops.push_back(&m_levels[std::size_t(m)].A);
  const std::vector<GridStencil> stencils = LayeredStencil::downloadAll(ops);
  m_blocks[0] = packBlock(passLevel, std::span(stencils));
  if (tiledLevel > passLevel)
    m_blocks[1] = packBlock(tiledLevel, std::span(stencils).subspan(std::size_t(tiledLevel - passLevel)));
}

Multigrid::BlockData Multigrid::packBlock(int start, std::span<const GridStencil> stencils) const {
  // Three texels a node (the nine entries, then padding), 1024 texels a row; then the
  // constant-stencil flags, one bit a node (all block levels' nodes in a row, as in shared
  // memory), 16 bits to a float (exact integers) so that a texel carries 64 nodes.
  // A node is flagged when its nine entries equal its level's reference stencil bit for bit
  // (the most frequent stencil among the level's free nodes): the kernel then takes them
  // from uniforms instead of three dependent texture fetches. Galerkin operators of a
  // constant fine stencil are constant away from boundaries and obstacles, so nearly every
  // warp of a sweep runs on shared memory alone.
  BlockData block;
  std::vector<float> packed;
  std::vector<std::uint32_t> flags;
  std::size_t node = 0;
  for (int m = start; m < levels(); ++m) {
    block.coefficientOffsets.push_back(int(packed.size() / 4));
    const GridStencil& A = stencils[std::size_t(m - start)];
    using Entries = std::array<std::uint32_t, 9>;
    auto entriesAt = [&](int i, int j) {
      Entries e{};
      for (int d = 0; d < 9; ++d) e[std::size_t(d)] = floatBits(A.coefficient(i, j, d % 3 - 1, d / 3 - 1));
      return e;
    };
    std::map<Entries, std::size_t> counts;
    for (int j = 0; j < A.ny(); ++j)
      for (int i = 0; i < A.nx(); ++i)
        if (!A.isFixed(i, j)) ++counts[entriesAt(i, j)];
    Entries reference{};  // all zero when every node is fixed: then nothing is flagged
    std::size_t best = 0;
    for (const auto& [entries, count] : counts)
      if (count > best) best = count, reference = entries;
    for (std::uint32_t bits : reference) block.reference.push_back(floatFromBits(bits));
    for (int j = 0; j < A.ny(); ++j)
      for (int i = 0; i < A.nx(); ++i, ++node) {
        for (int d = 0; d < 9; ++d) packed.push_back(A.coefficient(i, j, d % 3 - 1, d / 3 - 1));
        packed.insert(packed.end(), 3, 0.0f);
        if (node % 32 == 0) flags.push_back(0);
        if (best > 0 && entriesAt(i, j) == reference) {
          flags.back() |= 1u << (node % 32);
          ++block.info.constantNodes;
        }
      }
  }
  block.info.level = start;
  block.info.nodes = node;
  block.flagOffset = int(packed.size() / 4);
  for (std::uint32_t word : flags) {
    packed.push_back(float(word & 0xffffu));
    packed.push_back(float(word >> 16));
  }
  while (packed.size() % 4 != 0) packed.push_back(0.0f);
  const std::size_t texels = packed.size() / 4;
  const int height = int((texels + 1023) / 1024);
  packed.resize(std::size_t(height) * 1024 * 4, 0.0f);
  block.coefficients = gl::Texture(1024, height, gl::TextureFormat::RGBA32F, m_name + ".block_coefficients");
  block.coefficients.upload(packed.data());
  return block;
}

const Multigrid::BlockData& Multigrid::block() const {
  return tiledSweeps() && m_blocks[1].info.level >= 0 ? m_blocks[1] : m_blocks[0];
}

bool Multigrid::useBlockCycle() const {
  return block().info.level >= 0 && m_options.cycle == CycleType::V &&
         stream::Runtime::current().backend() == stream::Backend::Compute;
}

void Multigrid::blockCycle(bool zeroGuess) {
  const BlockData& b = block();
  const int start = b.info.level;
  Level& level = m_levels[std::size_t(start)];
  std::vector<int> nx, ny, offsets;
  int nodes = 0;
  for (int m = start; m < levels(); ++m) {
    nx.push_back(grid(m).nx());
    ny.push_back(grid(m).ny());
    offsets.push_back(nodes);
    nodes += grid(m).nx() * grid(m).ny();
  }
  const bool direct = m_options.coarseSolve == CoarseSolve::Direct && m_blockInverse.id() != 0;
  Pass pass("multigrid/block_cycle");
  level.grid.bind(pass);
  pass.define("BLOCK_LEVELS", (long long)nx.size()).define("SHARED_NODES", (long long)nodes)
      .define("NODES_PER_THREAD", (long long)((grid(start).nodes() + 1023) / 1024));
  if (direct) pass.define("DIRECT");
  if (zeroGuess) pass.define("ZERO_GUESS");
  // The block level's residuals in shared memory too where they fit (block_cycle.glsl).
  const long long sharedBytes = 4LL * nodes + 4LL * (nodes + 3) + 8LL * ((nodes + 63) / 64) + 4LL * grid(start).nodes();
  if (sharedBytes <= m_sharedBytes)
    pass.define("RESIDUAL_SHARED").define("RESIDUAL_NODES", (long long)grid(start).nodes());
  pass.input("u_b", level.b).input("u_x", level.x).input("u_coeffs", b.coefficients)
      .input("u_inverse", direct ? m_blockInverse : b.coefficients);
  pass.uniformArray("u_nx", nx).uniformArray("u_ny", ny).uniformArray("u_offset", offsets)
      .uniformArray("u_coeffOffset", b.coefficientOffsets).uniformArray("u_reference", b.reference);
  pass.uniform("u_flagOffset", b.flagOffset);
  pass.uniform("u_omega", m_options.omega).uniform("u_pre", m_options.preSmoothing)
      .uniform("u_post", m_options.postSmoothing).uniform("u_coarseIterations", m_options.coarseIterations);
  pass.output(level.x).workgroups(1, 1, 1).label("mg block cycle").run();
}

bool Multigrid::startsWithSweep(int l) const {
  if (l < levels() - 1) return true;  // pre-smoothing, or the omega-0 sweep without it
  return m_options.coarseSolve == CoarseSolve::Jacobi || m_coarseInverse.empty();
}

float Multigrid::firstSweepOmega(int l) const {
  return l < levels() - 1 && m_options.preSmoothing == 0 ? 0.0f : m_options.omega;
}

void Multigrid::descend(int l, bool sweep) {
  Level& level = m_levels[std::size_t(l)];
  Level& coarse = m_levels[std::size_t(l) + 1];
  const ZeroGuessSweep s{sweep ? &coarse.x : nullptr, firstSweepOmega(l + 1), inKernel()};
  residual(l);
  if (!inKernel()) level.grid.syncBorder({&level.r});
  projectFullWeighting(level.grid, coarse.grid, level.r, coarse.A.centre(), coarse.b, s);
}

void Multigrid::cycleAt(int l, bool zeroGuess, bool swept) {
  if (l == block().info.level && !swept && useBlockCycle()) {
    blockCycle(zeroGuess);
    return;
  }
  if (l == levels() - 1) {
    coarseSolve(l, zeroGuess, swept);
    return;
  }
  Level& level = m_levels[std::size_t(l)];
  // The coarse level starts from zero: its first sweep comes with its right-hand side.
  const bool sweep = startsWithSweep(l + 1) && !(l + 1 == block().info.level && useBlockCycle());
  const int pre = std::max(0, m_options.preSmoothing - (swept ? 1 : 0));
  const bool zeroPre = zeroGuess && !swept;
  if (tiledSweeps() && !(zeroPre && pre == 0)) {
    // The pre-smoothing's last sweeps, the residual and its projection in one dispatch.
    const int first = std::max(0, pre - maxTileSweeps(l));
    smooth(l, first, zeroPre);
    sweepTiles(l, pre - first, zeroPre && first == 0, TileStep::Restrict, sweep);
  } else if (m_options.preSmoothing > 0) {
    smooth(l, pre, zeroPre);
  } else if (zeroGuess && !swept) {
    // x = 0 at free nodes, b at fixed ones: a zero-guess sweep with omega 0.
    Pass pass("multigrid/smooth");
    level.grid.bind(pass);
    bindOperator(pass, l);
    pass.define("ZERO_GUESS").input("u_b", level.b).uniform("u_omega", 0.0f).output(level.x).label("mg smooth");
    if (inKernel()) pass.define("BORDER_IN_KERNEL");
    pass.run();
    border(l, level.x);
  }
  if (!tiledSweeps() || (zeroPre && pre == 0)) descend(l, sweep);
  cycleAt(l + 1, true, sweep);
  if (m_options.cycle == CycleType::W) cycleAt(l + 1, false);
  if (m_options.postSmoothing > 0 && tiledSweeps()) {
    // The correction and the first post-sweeps in one dispatch.
    const int first = std::min(maxTileSweeps(l), m_options.postSmoothing);
    sweepTiles(l, first, false, TileStep::Correct, false);
    smooth(l, m_options.postSmoothing - first, false);
  } else if (m_options.postSmoothing > 0) {
    correctAndSmooth(l);
    smooth(l, m_options.postSmoothing - 1, false);
  } else {
    interpolate(l, true);
    smooth(l, m_options.postSmoothing, false);
  }
}

void Multigrid::correctAndSmooth(int l) {
  Level& level = m_levels[std::size_t(l)];
  const Level& coarse = m_levels[std::size_t(l) + 1];
  Pass pass("multigrid/correct_smooth");
  level.grid.bind(pass);
  bindOperator(pass, l);
  if (inKernel()) pass.define("BORDER_IN_KERNEL");
  pass.input("u_x", level.x).input("u_v", coarse.x).input("u_b", level.b).uniform("u_omega", m_options.omega);
  pass.output(level.x).label("mg correct+smooth").run();
  border(l, level.x);
}

void Multigrid::cycle(bool zeroGuess) {
  gl::StateGuard guard;
  cycleAt(0, zeroGuess);
}

void Multigrid::relax(int sweeps) {
  gl::StateGuard guard;
  smooth(0, sweeps, false);
}

void Multigrid::fullMultigrid() {
  gl::StateGuard guard;
  // Right-hand sides of every level: b_2h = P b_h (b_h masked to free owned nodes, then
  // its border copied, as the projection reads neighbours).
  for (int l = 0; l + 1 < levels(); ++l) {
    Level& level = m_levels[std::size_t(l)];
    maskFree(l, level.b, level.r);  // owned texels only: restrictResidual copies the border
    restrictResidual(l);
  }
  coarseSolve(levels() - 1, true);
  for (int l = levels() - 2; l >= 0; --l) {
    interpolate(l, false);
    cycleAt(l, false);
  }
}

void Multigrid::imposeFixed() {
  gl::StateGuard guard;
  Level& level = m_levels[0];
  Pass pass("multigrid/impose_fixed");
  level.grid.bind(pass);
  pass.input("u_x", level.x).input("u_b", level.b).input("u_centre", level.A.centre()).output(level.x);
  pass.label("mg impose fixed").run();
  level.grid.syncBorder({&level.x});
}

void Multigrid::removeMean(Vector& layered) {
  gl::StateGuard guard;
  grid(0).require("Multigrid::removeMean", layered);
  if (m_freeNodes == 0) return;
  Vector masked = Vector::temporary(grid(0).layout(), m_name + ".masked");
  maskFree(0, layered, masked);
  stream::sum(masked, m_scalar);
  Pass("multigrid/add_constant")
      .input("u_x", layered)
      .input("u_centre", m_levels[0].A.centre())
      .coefficient("u_a", stream::Coefficient(-1.0f / float(m_freeNodes), m_scalar))
      .output(layered)
      .label("mg remove mean")
      .run();
}

void Multigrid::residualNorm(stream::Scalar& out) {
  gl::StateGuard guard;
  residual(0);
  stream::norm2(m_levels[0].r, out);
}

double Multigrid::residualNorm() {
  residualNorm(m_scalar);
  return double(m_scalar.read());
}

double Multigrid::rhsNorm() {
  gl::StateGuard guard;
  Vector masked = Vector::temporary(grid(0).layout(), m_name + ".masked");
  maskFree(0, m_levels[0].b, masked);
  stream::norm2(masked, m_scalar);
  return double(m_scalar.read());
}

SolverStatus Multigrid::solveLayered(const IterativeOptions& opts) {
  const IterationLimits limits = resolveLimits("Multigrid::solve", opts, kMultigridDefaults);
  SolveRecorder recorder("multigrid(\"" + m_name + "\") " + cycleName(m_options.cycle) + "(" +
                             std::to_string(m_options.preSmoothing) + "," + std::to_string(m_options.postSmoothing) + ")",
                         opts.onCheck, limits.checks());
  gl::StateGuard guard;
  stream::BackendScope backendScope(opts.backend);
  Level& top = m_levels[0];
  // Fixed work cycles x as it is: no zero-mean projections, the fixed nodes imposed by the
  // cycles themselves.
  const bool project = m_singular && !limits.fixed;
  auto finish = [&](const Verdict& v) {
    if (project) removeMean(top.x);
    return recorder.finish(v);
  };

  if (project) removeMean(top.b);
  if (!limits.fixed) imposeFixed();
  double bnorm = 0;
  if (limits.checks()) {
    bnorm = rhsNorm();
    if (std::optional<Verdict> v = rightHandSideVerdict(bnorm, "b", "", recorder)) {
      if (v->outcome == Outcome::Converged) {
        // b = 0 at free nodes: x = 0 there (fixed nodes hold b).
        Pass("multigrid/add_constant")
            .input("u_x", top.x)
            .input("u_centre", top.A.centre())
            .define("ZERO_FREE")
            .coefficient("u_a", 0.0f)
            .output(top.x)
            .label("mg zero")
            .run();
      }
      return finish(*v);
    }
  }

  // Defect correction: the cycles work on corrections c (level 0's x) for A c = r, with
  // the recurrence residual r in level 0's b; x and the original b wait here.
  const bool recurrence = m_options.residualCheck == ResidualCheck::Recurrence;
  Vector x, savedB;
  if (recurrence) {
    residual(0);
    x = std::move(top.x);
    savedB = std::move(top.b);
    top.x = Vector::temporary(top.grid.layout(), m_name + ".correction");
    top.b = Vector::temporary(top.grid.layout(), m_name + ".defect");
    std::swap(top.b, top.r);
  }
  StationaryLoop loop;
  loop.iteration = "cycle";
  loop.residual = recurrence ? "||r||/||b||" : "||b - A x||/||b||";
  loop.nonFiniteCause = "NaN or Inf in the initial guess, or the cycles overflowed";
  if (!recurrence) loop.stagnation = "the float32 floor of the true residual; ResidualCheck::Recurrence goes lower";
  loop.relativeResidual = [&] {
    if (!recurrence) return residualNorm() / bnorm;
    stream::norm2(top.b, m_scalar);
    return double(m_scalar.read()) / bnorm;
  };
  loop.step = [&](int k) {
    if (k == 0 && m_options.fullMultigrid) fullMultigrid();  // from zero: a correction in recurrence mode
    else cycleAt(0, recurrence);
    if (recurrence) defectUpdate(x, top.b);
  };
  const Verdict verdict = runStationary(loop, limits, recorder);
  if (recurrence) {
    top.x = std::move(x);
    top.b = std::move(savedB);
  }
  return finish(verdict);
}

SolverStatus Multigrid::run(const Vector& b, Vector& x, const IterativeOptions& opts) {
  gl::StateGuard guard;
  stream::BackendScope backendScope(opts.backend);
  const std::size_t n = grid(0).nodes();
  if (b.size() != n || x.size() != n)
    throw gl::Error("Multigrid(\"" + m_name + "\")::solve: b \"" + b.name() + "\" has n=" + std::to_string(b.size()) +
                    ", x \"" + x.name() + "\" n=" + std::to_string(x.size()) + ", the grid " + std::to_string(n) +
                    " nodes");
  grid(0).layer(b, m_levels[0].b);
  grid(0).layer(x, m_levels[0].x);
  SolverStatus status = solveLayered(opts);
  grid(0).unlayer(m_levels[0].x, x);
  return status;
}

namespace {

/// Multigrid::layeredSolver(): solveLayered on the caller's layered fields.
class LayeredMultigridSolver final : public IterativeSolver {
 public:
  explicit LayeredMultigridSolver(Multigrid& mg) : m_mg(&mg) {}

 protected:
  SolverStatus run(const Vector& b, Vector& x, const IterativeOptions& options) override {
    const LayeredGrid& g = m_mg->grid(0);
    g.require("Multigrid::layeredSolver (b)", b);
    g.require("Multigrid::layeredSolver (x)", x);
    gl::StateGuard guard;
    const bool ownB = &b == &m_mg->rhs(), ownX = &x == &m_mg->solution();
    if (!ownB) linalg::copy(b, m_mg->rhs());
    if (!ownX) linalg::copy(x, m_mg->solution());
    SolverStatus status = m_mg->solveLayered(options);
    if (!ownX) linalg::copy(m_mg->solution(), x);
    return status;
  }

 private:
  Multigrid* m_mg;
};

}  // namespace

std::unique_ptr<IterativeSolver> Multigrid::layeredSolver() { return std::make_unique<LayeredMultigridSolver>(*this); }

}  // namespace multigrid
}  // namespace texstream::solvers
