// McAdams, Sifakis & Teran 2010: a multigrid V-cycle preconditioning CG on the pressure
// operator of a fluid domain (MGPCG), with red-black Gauss-Seidel smoothing.
#include <texstream/solvers/multigrid/PressureMultigrid3D.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/PressureMatrix3D.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <algorithm>
#include <stdexcept>

namespace texstream::solvers {
inline namespace multigrid {

using stream::GridField3D;
using stream::GridLayout3D;

namespace {
constexpr int kRed = 0, kBlack = 1;
// A whole sweep's dispatch (shaders/pressure3d/mg_sweep.glsl): a workgroup's tile of
// texels x rows, with its halo one thread a texel, and the slices it marches through.
// Tiles of 8 x 8 texels measured best of 4-16 texels and 4-16 rows at 256^3 on an H200;
// 8 slices a workgroup there (of 4-32), 4 where 8 would leave fewer than 4096 workgroups
// (128^3: its MGPCG solve's GPU time 2.09 ms against 2.15 ms).
constexpr int kSweepTileX = 8, kSweepTileY = 8;
constexpr int kSweepWorkgroupsWanted = 4096;
constexpr int kSweepThreadsX = kSweepTileX + 2, kSweepThreadsY = kSweepTileY + 4;
}

PressureMultigrid3D::PressureMultigrid3D(const linalg::PressureMatrix3D& A, Options options)
    : m_A(&A), m_options(options) {
  if (options.smoothing < 1) {
    throw std::invalid_argument("PressureMultigrid3D(\"" + A.name() + "\"): smoothing = " +
                                std::to_string(options.smoothing) + ", needs >= 1 sweep before and after");
  }
  for (auto [field, omega] : {std::pair{"omega", options.omega}, std::pair{"coarseOmega", options.coarseOmega}}) {
    if (!(omega > 0.0f && omega < 2.0f)) {
      throw std::invalid_argument("PressureMultigrid3D(\"" + A.name() + "\"): " + field + " = " + std::to_string(omega) +
                                  ", needs 0 < omega < 2 (the over-relaxation keeps the cycle convergent and "
                                  "symmetric only there)");
    }
  }
  if (options.boundarySweeps < 0) {
    throw std::invalid_argument("PressureMultigrid3D(\"" + A.name() + "\"): boundarySweeps = " +
                                std::to_string(options.boundarySweeps) + ", needs >= 0 (0: no boundary smoothing)");
  }
  if (options.boundaryWidth < 1 || options.boundaryWidth > 3) {
    throw std::invalid_argument("PressureMultigrid3D(\"" + A.name() + "\"): boundaryWidth = " +
                                std::to_string(options.boundaryWidth) +
                                ", needs 1 to 3 face steps (the band kernels scan the cells that far around each)");
  }
  gl::StateGuard guard;
  const std::string title = "PressureMultigrid3D(\"" + A.name() + "\")";
  GridLayout3D layout = A.grid();
  while (std::max({layout.nx(), layout.ny(), layout.nz()}) > 2) {
    layout = layout.coarse(title);
    const std::string level = A.name() + ".level" + std::to_string(m_levels.size() + 1);
    m_levels.push_back(Level{layout, GridField3D(layout, level + ".diagonal"), GridField3D(layout, level + ".r"),
                             GridField3D(layout, level + ".z")});
  }
  if (options.boundarySweeps > 0) {
    for (int l = 0; l < levels(); ++l) {
      m_bands.emplace_back(grid(l), A.name() + ".level" + std::to_string(l) + ".band");
    }
  }
  update();

  // The block cycle: shared memory holds z and r (8 bytes a cell) and the diagonal (a byte)
  // of its levels, at most 8 of them (sampler and uniform arrays), 256 invocations or more.
  const gl::Capabilities& caps = stream::Runtime::current().caps();
  if (caps.compute) {
    GLint sharedBytes = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &sharedBytes);
    const int invocations = caps.maxComputeInvocations, sizeX = caps.maxComputeGroupSide, sizeY = sizeX;
    // The whole-sweep dispatch holds four slices of its tile and halo, a vec4 a texel.
    m_sweepDispatch = invocations >= kSweepThreadsX * kSweepThreadsY && sizeX >= kSweepThreadsX &&
                      sizeY >= kSweepThreadsY && sharedBytes >= 4 * kSweepThreadsX * kSweepThreadsY * 16;
    // The restriction with one invocation a fine texel: 8 x 8 x 4 of them, a vec2 each.
    m_fineRestriction = invocations >= 256 && sharedBytes >= 256 * 8;
    const std::size_t maxCells = std::size_t(std::max(0, sharedBytes - 64)) / 9;
    m_blockThreads = std::min(1024, invocations);
    for (int l = 1; l < levels() && invocations >= 256; ++l) {
      std::size_t total = 0;
      for (int m = l; m < levels(); ++m) total += grid(m).cells();
      if (total <= maxCells && levels() - l <= 8) {
        m_blockLevel = l;
        break;
      }
    }
  }
}

const GridLayout3D& PressureMultigrid3D::grid(int level) const {
  return level == 0 ? m_A->grid() : m_levels.at(std::size_t(level - 1)).grid;
}

const GridField3D& PressureMultigrid3D::diagonalOf(int level) const {
  return level == 0 ? m_A->diagonalField() : m_levels[std::size_t(level - 1)].diagonal;
}

void PressureMultigrid3D::update() {
  gl::StateGuard guard;
  std::vector<int> outside(6);
  for (std::size_t s = 0; s < 6; ++s) outside[s] = int(m_A->shape().outside[s]);
  for (std::size_t l = 0; l < m_levels.size(); ++l) {
    Level& level = m_levels[l];
    const GridLayout3D& fine = grid(int(l));
    GridField3D labels = GridField3D::temporary(level.grid, m_A->name() + ".coarseLabels");
    stream::Pass coarsen("pressure3d/mg_labels");
    coarsen.label("mg3d coarsen labels").input("u_fineDiagonal", diagonalOf(int(l))).output(labels);
    stream::bindGrid(coarsen, "u_fine", fine);
    stream::bindGrid(coarsen, "u_coarse", level.grid).run();
    stream::Pass build("pressure3d/build");
    build.label("mg3d coarse operator").input("u_labels", labels).uniformArray("u_outside", outside).output(level.diagonal);
    stream::bindGrid(build, "u_grid", level.grid).run();
  }
  for (std::size_t l = 0; l < m_bands.size(); ++l) {
    stream::Pass band("pressure3d/mg_band");
    band.label("mg3d boundary band")
        .define("BAND_WIDTH", (long long)m_options.boundaryWidth)
        .input("u_diagonal", diagonalOf(int(l)))
        .output(m_bands[l]);
    stream::bindGrid(band, "u_grid", grid(int(l))).run();
  }
}

std::string PressureMultigrid3D::name() const {
  std::string name =
      "multigrid V(" + std::to_string(m_options.smoothing) + "," + std::to_string(m_options.smoothing) + ")";
  if (m_options.boundarySweeps > 0) {
    name += ", boundary " + std::to_string(m_options.boundarySweeps) + " x band " + std::to_string(m_options.boundaryWidth);
  }
  return name;
}

void PressureMultigrid3D::bindLevel(stream::Pass& pass, int level) const {
  if (level == 0) {
    m_A->bindOperator(pass);
  } else {
    stream::bindGrid(pass, "u_grid", grid(level)).input("u_diagonal", diagonalOf(level));
  }
}

void PressureMultigrid3D::smooth(int level, const stream::Vector& r, stream::Vector& z, int colour,
                                 bool zeroGuess, bool band) const {
  stream::Pass pass("pressure3d/mg_smooth");
  pass.label(band ? "mg3d boundary smooth" : (zeroGuess ? "mg3d smooth (from 0)" : "mg3d smooth"))
      .input("u_r", r)
      .uniform("u_colour", colour)
      .uniform("u_omega", omegaOf(level));
  if (zeroGuess) {
    pass.define("ZERO_GUESS");
  } else {
    pass.input("u_z", z);
  }
  if (band) pass.define("BAND").input("u_band", m_bands[std::size_t(level)]);
  bindLevel(pass, level);
  pass.output(z).run();
}

void PressureMultigrid3D::blockCycle(int level, const stream::Vector& r, stream::Vector& z) const {
  const int count = levels() - level;
  stream::Pass pass("pressure3d/mg_block_cycle");
  pass.label("mg3d block cycle").define("BLOCK_LEVELS", (long long)count).define("BLOCK_THREADS", (long long)m_blockThreads);
  std::vector<int> offsets;
  int cells = 0;
  for (int m = 0; m < count; ++m) {
    offsets.push_back(cells);
    cells += int(grid(level + m).cells());
    stream::bindGrid(pass, "u_levels[" + std::to_string(m) + "]", grid(level + m));
    pass.input("u_diagonal" + std::to_string(m), diagonalOf(level + m));
  }
  pass.define("SHARED_CELLS", (long long)cells)
      .uniformArray("u_offset", offsets)
      .uniform("u_sweeps", m_options.smoothing)
      .uniform("u_boundarySweeps", m_options.boundarySweeps)
      .define("BAND_WIDTH", (long long)m_options.boundaryWidth)
      .uniform("u_omega", omegaOf(level))
      .input("u_r", r)
      .output(z)
      .workgroups(1)
      .run();
}

void PressureMultigrid3D::sweep(int level, const stream::Vector& r, stream::Vector& z, int first, bool zeroGuess,
                                bool correct, bool band) const {
  const GridLayout3D& g = grid(level);
  const int slices = g.tilesX() * g.tilesY();
  const int tiles = ((g.tileWidth() + kSweepTileX - 1) / kSweepTileX) * ((g.ny() + kSweepTileY - 1) / kSweepTileY);
  const int chunk = tiles * ((slices + 7) / 8) >= kSweepWorkgroupsWanted ? 8 : 4;
  stream::Pass pass("pressure3d/mg_sweep");
  pass.label(band ? "mg3d boundary sweep"
                  : (correct ? "mg3d correct + sweep" : (zeroGuess ? "mg3d sweep (from 0)" : "mg3d sweep")))
      .define("SWEEP_THREADS_X", (long long)kSweepThreadsX)
      .define("SWEEP_THREADS_Y", (long long)kSweepThreadsY)
      .input("u_r", r)
      .uniform("u_first", first)
      .uniform("u_omega", omegaOf(level))
      .uniform("u_chunk", chunk)
      .uniform("u_slices", slices);
  if (zeroGuess) {
    pass.define("ZERO_GUESS");
  } else {
    pass.input("u_z", z);
  }
  if (correct) {
    const Level& coarse = m_levels[std::size_t(level)];
    pass.define("CORRECT").input("u_coarseZ", coarse.z);
    stream::bindGrid(pass, "u_coarse", coarse.grid);
  }
  if (band) pass.define("BAND").input("u_band", m_bands[std::size_t(level)]);
  bindLevel(pass, level);
  pass.output(z)
      .workgroups((g.tileWidth() + kSweepTileX - 1) / kSweepTileX, (g.ny() + kSweepTileY - 1) / kSweepTileY,
                  (slices + chunk - 1) / chunk)
      .run();
}

void PressureMultigrid3D::preSmooth(int level, const stream::Vector& r, stream::Vector& z) const {
  const bool dispatch = m_sweepDispatch && stream::Runtime::current().backend() == stream::Backend::Compute;
  // The boundary band first (McAdams et al. 2010, §4), then the whole level; the first of
  // all sweeps starts from z = 0.
  const int bandSweeps = m_options.boundarySweeps;
  for (int s = 0; s < bandSweeps + m_options.smoothing; ++s) {
    const bool band = s < bandSweeps;
    if (dispatch) {
      sweep(level, r, z, kRed, s == 0, false, band);
    } else {
      smooth(level, r, z, kRed, s == 0, band);
      smooth(level, r, z, kBlack, false, band);
    }
  }
}

void PressureMultigrid3D::postSmooth(int level, const stream::Vector& r, stream::Vector& z, bool correct) const {
  // The adjoint of the pre-smoothing: black first, the boundary band last.
  const bool dispatch = m_sweepDispatch && stream::Runtime::current().backend() == stream::Backend::Compute;
  for (int s = 0; s < m_options.smoothing; ++s) {
    if (dispatch) {
      sweep(level, r, z, kBlack, false, correct && s == 0);
      continue;
    }
    if (correct && s == 0) {
      // The correction z += P z_coarse happens inside the first post-smoothing pass.
      const Level& coarse = m_levels[std::size_t(level)];
      stream::Pass correctAndSmooth("pressure3d/mg_smooth");
      correctAndSmooth.label("mg3d correct + smooth")
          .define("CORRECT")
          .input("u_r", r)
          .input("u_z", z)
          .input("u_coarseZ", coarse.z)
          .uniform("u_colour", kBlack)
          .uniform("u_omega", omegaOf(level))
          .output(z);
      stream::bindGrid(correctAndSmooth, "u_coarse", coarse.grid);
      bindLevel(correctAndSmooth, level);
      correctAndSmooth.run();
    } else {
      smooth(level, r, z, kBlack, false);
    }
    smooth(level, r, z, kRed, false);
  }
  for (int s = 0; s < m_options.boundarySweeps; ++s) {
    if (dispatch) {
      sweep(level, r, z, kBlack, false, false, true);
    } else {
      smooth(level, r, z, kBlack, false, true);
      smooth(level, r, z, kRed, false, true);
    }
  }
}

void PressureMultigrid3D::cycle(int level, const stream::Vector& r, stream::Vector& z) const {
  if (level == m_blockLevel && stream::Runtime::current().backend() == stream::Backend::Compute) {
    blockCycle(level, r, z);
    return;
  }
  preSmooth(level, r, z);
  if (level == int(m_levels.size())) {
    postSmooth(level, r, z, false);
    return;
  }
  const Level& coarse = m_levels[std::size_t(level)];
  // The residual is evaluated inside the restriction; on the compute backend one invocation
  // a fine texel (pressure3d/mg_restrict_fine.glsl), else one a coarse texel.
  const bool fineInvocations = m_fineRestriction && stream::Runtime::current().backend() == stream::Backend::Compute;
  stream::Pass restrict(fineInvocations ? "pressure3d/mg_restrict_fine" : "pressure3d/mg_restrict");
  restrict.label("mg3d residual + restrict")
      .input("u_r", r)
      .input("u_z", z)
      .input("u_coarseDiagonal", coarse.diagonal)
      .output(coarse.r);
  bindLevel(restrict, level);
  stream::bindGrid(restrict, "u_coarse", coarse.grid);
  if (fineInvocations) {
    const GridLayout3D& g = grid(level);
    restrict.workgroups((g.tileWidth() + 7) / 8, (g.ny() + 7) / 8, (g.nz() + 3) / 4);
  }
  restrict.run();
  cycle(level + 1, coarse.r, coarse.z);
  postSmooth(level, r, z, true);
}

void PressureMultigrid3D::apply(const stream::Vector& r, stream::Vector& z) const {
  const std::string where = "PressureMultigrid3D(\"" + m_A->name() + "\").apply";
  const stream::Layout& layout = m_A->grid().layout();
  if (r.layout() != layout || z.layout() != layout) {
    throw gl::Error(where + ": r (\"" + r.name() + "\", " + r.layout().describe() + ") and z (\"" + z.name() + "\", " +
                    z.layout().describe() + ") must be fields on the " + m_A->grid().describe() + " grid, " +
                    layout.describe());
  }
  gl::StateGuard guard;
  if (stream::sameVector(r, z)) {
    // The cycle reads r after its first pass writes z: keep r apart.
    GridField3D copyOfR = GridField3D::temporary(m_A->grid(), "mg3d.r");
    linalg::copy(r, copyOfR);
    cycle(0, copyOfR, z);
    return;
  }
  cycle(0, r, z);
}

}  // namespace multigrid
}  // namespace texstream::solvers
