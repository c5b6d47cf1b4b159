// Tests the faster cycle of src/solvers/multigrid/Multigrid.*: the constant-coefficient fast path of
// LayeredStencil (flags against a CPU check; cycles with it on every level against the
// texture path), the projection and its zero-guess sweep (against CPU double references),
// the fused passes of a cycle (one cycle against a CPU double cycle on the GPU's own coarse
// operators) and the compute backend's one-dispatch block cycle (against the fragment
// backend's multi-pass cycle), at awkward and non-square sizes, with obstacles, Neumann
// walls, Helmholtz terms with a variable sigma and random variable coefficients.
#include <catch2/catch.hpp>

#include "solvers/multigrid/multigrid_reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Texture.h>
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/multigrid/GridTransfer.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>
#include <texstream/solvers/multigrid/LayeredStencil.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/stream/Vector.h>

#include <Eigen/Dense>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

using namespace texstream;
using solvers::Boundary;
using solvers::BorderUpdate;
using solvers::CoarseSolve;
using solvers::CycleType;
using solvers::GridBoundaries;
using solvers::GridStencil;
using solvers::LayeredGrid;
using solvers::LayeredStencil;
using solvers::Multigrid;
using solvers::MultigridOptions;

namespace {

/// MultigridOptions::constantStencilTexels for no level on the constant-stencil path (the
/// texture path, which levels below the default threshold take).
constexpr int kTexturesOnly = std::numeric_limits<int>::max();

enum class Problem {
  Obstacle,           ///< Dirichlet Poisson, a disc of fixed nodes inside (free nodes couple to it)
  NeumannObstacle,    ///< pure Neumann Poisson, a disc with Neumann walls (singular, as the fluid's)
  VariableHelmholtz,  ///< Helmholtz with Neumann walls, sigma larger in a rectangle
  Random,             ///< random variable 9-point coefficients, mixed boundaries
};

const char* problemName(Problem p) {
  switch (p) {
    case Problem::Obstacle: return "Dirichlet Poisson with an obstacle";
    case Problem::NeumannObstacle: return "Neumann Poisson with a Neumann obstacle";
    case Problem::VariableHelmholtz: return "Helmholtz with variable sigma";
    case Problem::Random: return "random coefficients";
  }
  return "?";
}

/// The problem on nx x ny nodes; `variant` moves the obstacle (or the sigma rectangle).
GridStencil makeProblem(Problem p, int nx, int ny, int variant = 0) {
  const double cx = nx * (0.4 + 0.15 * variant), cy = ny * (0.45 - 0.1 * variant);
  const double radius = std::max(1.6, std::min(nx, ny) / 6.0);
  auto inDisc = [&](int i, int j) { return (i - cx) * (i - cx) + (j - cy) * (j - cy) <= radius * radius; };
  switch (p) {
    case Problem::Obstacle: {
      GridStencil A = GridStencil::poisson(nx, ny, GridBoundaries::all(Boundary::Dirichlet), "obstacle");
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          if (inDisc(i, j)) A.fix(i, j);
      return A;
    }
    case Problem::NeumannObstacle: {
      GridStencil A = GridStencil::poisson(nx, ny, GridBoundaries::all(Boundary::Neumann), "neumann_obstacle");
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          if (inDisc(i, j)) A.fix(i, j);
      // Neumann walls around the disc: a free node drops its link into it.
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          if (A.isFixed(i, j)) continue;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int a = i + dx, b = j + dy;
              if ((dx == 0 && dy == 0) || a < 0 || b < 0 || a >= nx || b >= ny || !A.isFixed(a, b)) continue;
              const float link = A.coefficient(i, j, dx, dy);
              A.setCoefficient(i, j, dx, dy, 0.0f);
              A.setCoefficient(i, j, 0, 0, A.coefficient(i, j, 0, 0) + link);
            }
        }
      return A;
    }
    case Problem::VariableHelmholtz: {
      GridStencil A = GridStencil::helmholtz(nx, ny, 0.3, GridBoundaries::all(Boundary::Neumann), "helmholtz");
      for (int j = ny / 4 + variant; j < ny / 2 + variant; ++j)
        for (int i = nx / 3; i < 2 * nx / 3; ++i) A.setCoefficient(i, j, 0, 0, A.coefficient(i, j, 0, 0) + 0.25f);
      return A;
    }
    case Problem::Random: {
      const GridBoundaries mixed{Boundary::Dirichlet, Boundary::Neumann, Boundary::Neumann, Boundary::Dirichlet};
      return test::randomSymmetricStencil(nx, ny, 0.05, mixed, std::uint64_t(nx * 7 + ny + variant));
    }
  }
  return GridStencil(nx, ny, "?");
}

/// Multigrid on A; the Neumann obstacle problem is singular (constants on the free nodes),
/// which GridStencil::hasConstantNullSpace does not see with fixed nodes present.
Multigrid makeMultigrid(Problem p, const GridStencil& A, const MultigridOptions& o = {}) {
  const bool singular = p == Problem::NeumannObstacle;
  return Multigrid(LayeredStencil::upload(A, Multigrid::fineGrid(A.nx(), A.ny(), o)), singular, o);
}

/// Checks op's flags texel by texel against the entries read back (1 exactly where the nine
/// values of every owned channel equal the reference bit for bit and some channel is owned);
/// returns the flagged count.
std::size_t checkFlags(const LayeredStencil& op) {
  const LayeredGrid& g = op.grid();
  const int w = g.width(), h = g.height();
  std::array<std::vector<float>, 9> e;
  for (int k = 0; k < 9; ++k) e[std::size_t(k)] = op.entry(k).download();
  std::vector<float> flags(std::size_t(w) * h);
  op.constantFlags().download(flags.data());
  const std::array<float, 36>& ref = op.constantStencil();
  for (int c = 0; c < 4; ++c) CHECK(ref[16 + std::size_t(c)] != 0.0f);  // the reference centre is free
  std::size_t flagged = 0, wrong = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t t = std::size_t(y) * w + x;
      bool same = g.owns(x, y, 0) || g.owns(x, y, 1) || g.owns(x, y, 2) || g.owns(x, y, 3);
      for (std::size_t k = 0; k < 9 && same; ++k)
        for (std::size_t c = 0; c < 4 && same; ++c)
          same = !g.owns(x, y, int(c)) || std::memcmp(&e[k][4 * t + c], &ref[4 * k + c], 4) == 0;
      flagged += same;
      wrong += same != (flags[t] == 1.0f) || (flags[t] != 0.0f && flags[t] != 1.0f);
    }
  INFO(g.describe() << ": " << wrong << " wrong flags");
  CHECK(wrong == 0);
  return flagged;
}

/// `count` cycles from the layered (x, b) of these node values; the layered solution.
std::vector<float> runCycles(Multigrid& mg, const std::vector<float>& xs, const std::vector<float>& bs, int count) {
  const LayeredGrid& g = mg.grid(0);
  stream::Vector x(g.nodes(), "x"), b(g.nodes(), "b");
  x.upload(xs);
  b.upload(bs);
  g.layer(b, mg.rhs());
  g.layer(x, mg.solution());
  if (mg.singular()) mg.removeMean(mg.rhs());  // consistent: no drift along the constants
  mg.imposeFixed();
  for (int c = 0; c < count; ++c) mg.cycle();
  // The constants are the null space: rounding moves x along them, and nothing pulls back.
  if (mg.singular()) mg.removeMean(mg.solution());
  return mg.solution().download();
}

std::size_t bitwiseDifferent(const std::vector<float>& a, const std::vector<float>& b) {
  std::size_t n = 0;
  for (std::size_t k = 0; k < a.size(); ++k) n += std::memcmp(&a[k], &b[k], 4) != 0;
  return n;
}

}  // namespace

TEST_CASE("Multigrid constant stencil: flags match a CPU check, cycles match the texture path", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::vector<std::pair<int, int>> shapes = {{17, 17}, {33, 33}, {65, 65}, {100, 37}, {40, 27}, {129, 129}};
  for (Problem p : {Problem::Obstacle, Problem::NeumannObstacle, Problem::VariableHelmholtz, Problem::Random}) {
    for (auto [nx, ny] : shapes) {
      if (nx == 129 && p != Problem::Obstacle) continue;  // one large case is enough
      INFO(problemName(p) << ", " << nx << "x" << ny);
      const GridStencil A = makeProblem(p, nx, ny);
      // Every level on the fast path (by default only levels of 65536 texels and more).
      Multigrid on = makeMultigrid(p, A, {.border = BorderUpdate::InKernel, .constantStencilTexels = 0});
      Multigrid off = makeMultigrid(p, A,
                                    {.border = BorderUpdate::InKernel,
                                     .constantStencilTexels = kTexturesOnly,
                                     .tiledConstantStencilTexels = kTexturesOnly});
      REQUIRE(on.levels() == off.levels());
      for (int l = 0; l < on.levels(); ++l) CHECK(!off.op(l).hasConstantStencil());
      if (p == Problem::Random) {
        // Variable coefficients: no reference stencil, no flag fetch.
        CHECK(!on.op(0).hasConstantStencil());
      } else {
        // Walls and obstacles keep some texels off the fast path on the finest level.
        REQUIRE(on.op(0).hasConstantStencil());
        const std::size_t flagged = checkFlags(on.op(0));
        const std::size_t texels = std::size_t(on.grid(0).width()) * on.grid(0).height();
        INFO(flagged << " of " << texels << " texels flagged");
        // An obstacle in one quadrant keeps the texels of all four off the fast path.
        CHECK(flagged > (nx >= 33 ? texels / 5 : 0));
        CHECK(flagged < texels);
      }
      for (int l = 1; l < on.levels(); ++l)
        if (on.op(l).hasConstantStencil()) checkFlags(on.op(l));

      const std::vector<float> xs = test::randomFloats(A.nodes(), 41), bs = test::randomFloats(A.nodes(), 42);
      const std::vector<float> got = runCycles(on, xs, bs, 2), ref = runCycles(off, xs, bs, 2);
      INFO(bitwiseDifferent(got, ref) << " of " << got.size() << " layered values differ in some bit");
      CHECK(test::maxRelativeError(got, test::toDouble(ref)) < 2e-6);
    }
  }
}

TEST_CASE("Multigrid constant stencil: setOperator and setOptions refresh the flags", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (auto [nx, ny] : std::vector<std::pair<int, int>>{{65, 48}, {33, 60}}) {
    INFO(nx << "x" << ny);
    const GridStencil A0 = makeProblem(Problem::NeumannObstacle, nx, ny, 0);
    const GridStencil A1 = makeProblem(Problem::NeumannObstacle, nx, ny, 1);  // the obstacle moved
    Multigrid on = makeMultigrid(Problem::NeumannObstacle, A0, {.constantStencilTexels = 0});
    Multigrid off = makeMultigrid(Problem::NeumannObstacle, A0,
                                  {.constantStencilTexels = kTexturesOnly, .tiledConstantStencilTexels = kTexturesOnly});
    const std::size_t before = checkFlags(on.op(0));
    for (Multigrid* mg : {&on, &off})
      mg->setOperator(LayeredStencil::upload(A1, mg->grid(0)), true);
    REQUIRE(on.op(0).hasConstantStencil());
    const std::size_t after = checkFlags(on.op(0));
    CHECK(after != before);  // other texels hold the obstacle now
    for (int l = 1; l < on.levels(); ++l)
      if (on.op(l).hasConstantStencil()) checkFlags(on.op(l));
    const std::vector<float> xs = test::randomFloats(A1.nodes(), 43), bs = test::randomFloats(A1.nodes(), 44);
    const std::vector<float> ref = runCycles(off, xs, bs, 2);
    CHECK(test::maxRelativeError(runCycles(on, xs, bs, 2), test::toDouble(ref)) < 2e-6);

    // Off every level and back on again through setOptions.
    MultigridOptions o = on.options();
    o.constantStencilTexels = o.tiledConstantStencilTexels = kTexturesOnly;
    on.setOptions(o);
    for (int l = 0; l < on.levels(); ++l) CHECK(!on.op(l).hasConstantStencil());
    CHECK(runCycles(on, xs, bs, 2) == ref);  // the texture path on both: the same passes
    o.constantStencilTexels = o.tiledConstantStencilTexels = 0;
    on.setOptions(o);
    CHECK(checkFlags(on.op(0)) == after);
    CHECK(test::maxRelativeError(runCycles(on, xs, bs, 2), test::toDouble(ref)) < 2e-6);
  }
}

TEST_CASE("Multigrid transfers: the projection and its zero-guess sweep match the CPU", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const float omega = 0.8f;
  for (Problem p : {Problem::Obstacle, Problem::VariableHelmholtz, Problem::Random}) {
    for (auto [nx, ny] : std::vector<std::pair<int, int>>{{5, 5}, {9, 6}, {17, 17}, {12, 21}, {33, 30}, {65, 40}}) {
      const std::vector<LayeredGrid> grids = LayeredGrid::hierarchy(nx, ny, 2, 4);
      REQUIRE(grids.size() == 2);
      const LayeredGrid &fine = grids[0], &coarse = grids[1];
      const GridStencil A = makeProblem(p, nx, ny);
      const LayeredStencil fineOp = LayeredStencil::upload(A, fine);
      LayeredStencil coarseOp(coarse, "coarse");
      solvers::composeGalerkin(fineOp, coarseOp);
      const GridStencil C = coarseOp.download();
      std::vector<bool> coarseFixed(C.nodes());
      for (int j = 0; j < C.ny(); ++j)
        for (int i = 0; i < C.nx(); ++i) coarseFixed[std::size_t(j) * C.nx() + i] = C.isFixed(i, j);

      // CPU: r = b - A x at free nodes, zero at fixed ones; b_2h = P r; x_2h = omega b_2h / centre.
      const std::vector<float> xs = test::randomFloats(A.nodes(), 51), bs = test::randomFloats(A.nodes(), 52);
      const std::vector<double> ax = A.apply(test::toDouble(xs));
      std::vector<double> r(A.nodes(), 0.0);
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          const std::size_t k = std::size_t(j) * nx + i;
          if (!A.isFixed(i, j)) r[k] = double(bs[k]) - ax[k];
        }
      const std::vector<double> refB = test::projectReference(nx, ny, r, coarseFixed);
      std::vector<double> refX(refB.size(), 0.0);
      for (std::size_t k = 0; k < refB.size(); ++k)
        if (!coarseFixed[k]) refX[k] = double(omega) * refB[k] / double(C.entry(4)[k]);

      stream::Vector rl(fine.layout(), "r");
      std::vector<float> rf(r.begin(), r.end());
      rl.upload(fine.layerHost(rf));
      for (bool inKernel : {true, false}) {
        INFO(problemName(p) << ", " << nx << "x" << ny << (inKernel ? ", border in kernel" : ", border copy"));
        stream::Vector b2(coarse.layout(), "b2"), x2(coarse.layout(), "x2");
        b2.upload(std::vector<float>(coarse.layout().size(), 77.0f));  // poisoned
        x2.upload(std::vector<float>(coarse.layout().size(), 77.0f));
        const solvers::ZeroGuessSweep sweep{&x2, omega, inKernel};
        solvers::projectFullWeighting(fine, coarse, rl, coarseOp.centre(), b2, sweep);
        const std::vector<float> b2s = b2.download(), x2s = x2.download();
        CHECK(test::maxRelativeError(coarse.unlayerHost(b2s), refB) < 1e-5);
        CHECK(test::maxRelativeError(coarse.unlayerHost(x2s), refX) < 1e-5);
        // b_2h: owned texels only; x_2h: border in sync, padding zero.
        std::vector<float> owned = coarse.unlayerHost(b2s), ownedOnly(b2s.size(), 0.0f);
        for (int j = 0; j < coarse.ny(); ++j)
          for (int i = 0; i < coarse.nx(); ++i) {
            const LayeredGrid::Slot s = coarse.owner(i, j);
            const std::size_t at = 4 * (std::size_t(s.y) * coarse.width() + s.x) + s.channel;
            ownedOnly[at] = owned[std::size_t(j) * coarse.nx() + i];
          }
        CHECK(b2s == ownedOnly);
        CHECK(x2s == coarse.layerHost(coarse.unlayerHost(x2s)));
      }
    }
  }
}

namespace {

/// One cycle of Multigrid.h's mathematics in double on the GPU's own operators (downloaded,
/// so composition errors stay out): weighted Jacobi, full weighting, bilinear correction,
/// the coarsest level solved exactly or by Jacobi sweeps. Zero guesses start from x = 0 at
/// free nodes and b at fixed ones.
class CpuCycle {
 public:
  CpuCycle(const Multigrid& mg) : m_o(mg.options()) {
    for (int l = 0; l < mg.levels(); ++l) {
      Level L;
      L.A = mg.op(l).download();
      L.nx = L.A.nx();
      L.ny = L.A.ny();
      const std::size_t n = L.A.nodes();
      L.x.assign(n, 0.0);
      L.b.assign(n, 0.0);
      m_levels.push_back(std::move(L));
    }
  }
  std::vector<double>& x() { return m_levels[0].x; }
  std::vector<double>& b() { return m_levels[0].b; }
  void cycle(int l, bool zeroGuess) {
    Level& L = m_levels[std::size_t(l)];
    if (zeroGuess)
      for (std::size_t k = 0; k < L.x.size(); ++k) L.x[k] = fixed(L, k) ? L.b[k] : 0.0;
    if (l + 1 == int(m_levels.size())) {
      if (m_o.coarseSolve == CoarseSolve::Jacobi) smooth(L, m_o.coarseIterations);
      else solve(L);
      return;
    }
    smooth(L, m_o.preSmoothing);
    const std::vector<double> r = residual(L);
    Level& C = m_levels[std::size_t(l) + 1];
    std::vector<bool> coarseFixed(C.x.size());
    for (std::size_t k = 0; k < C.x.size(); ++k) coarseFixed[k] = fixed(C, k);
    C.b = test::projectReference(L.nx, L.ny, r, coarseFixed);
    cycle(l + 1, true);
    if (m_o.cycle == CycleType::W) cycle(l + 1, false);
    const std::vector<double> s = test::interpolateReference(L.A, C.x);
    for (std::size_t k = 0; k < L.x.size(); ++k) L.x[k] += s[k];
    smooth(L, m_o.postSmoothing);
  }

 private:
  struct Level {
    GridStencil A{2, 2, "cpu"};
    int nx = 0, ny = 0;
    std::vector<double> x, b;
  };
  static bool fixed(const Level& L, std::size_t k) { return L.A.entry(4)[k] == 0.0f; }
  std::vector<double> residual(const Level& L) const {
    const std::vector<double> ax = L.A.apply(L.x);
    std::vector<double> r(L.x.size(), 0.0);
    for (std::size_t k = 0; k < r.size(); ++k)
      if (!fixed(L, k)) r[k] = L.b[k] - ax[k];
    return r;
  }
  void smooth(Level& L, int sweeps) const {
    for (int s = 0; s < sweeps; ++s) {
      const std::vector<double> r = residual(L);
      for (std::size_t k = 0; k < L.x.size(); ++k)
        L.x[k] = fixed(L, k) ? L.b[k] : L.x[k] + double(m_o.omega) * r[k] / double(L.A.entry(4)[k]);
    }
  }
  void solve(Level& L) const {
    // The free nodes' system with the fixed values moved to the right-hand side.
    for (std::size_t k = 0; k < L.x.size(); ++k) L.x[k] = fixed(L, k) ? L.b[k] : 0.0;
    std::vector<double> rhs = residual(L);
    for (std::size_t k = 0; k < rhs.size(); ++k)
      if (fixed(L, k)) rhs[k] = L.b[k];
    const std::size_t n = L.x.size();
    std::vector<double> M(n * n, 0.0);
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<double> e(n, 0.0);
      e[k] = 1.0;
      const std::vector<double> col = L.A.apply(e);
      for (std::size_t m = 0; m < n; ++m)
        M[m * n + k] = fixed(L, m) ? (m == k ? 1.0 : 0.0) : (fixed(L, k) ? 0.0 : col[m]);
    }
    using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Eigen::VectorXd y = Eigen::Map<const RowMajorMatrix>(M.data(), Eigen::Index(n), Eigen::Index(n))
                                  .partialPivLu()
                                  .solve(Eigen::Map<const Eigen::VectorXd>(rhs.data(), Eigen::Index(n)));
    for (std::size_t k = 0; k < n; ++k) L.x[k] = fixed(L, k) ? L.b[k] : y[Eigen::Index(k)];
  }

  MultigridOptions m_o;
  std::vector<Level> m_levels;
};

}  // namespace

TEST_CASE("Multigrid: one cycle matches a CPU double cycle on the same operators", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  struct Config {
    MultigridOptions o;
    const char* what;
  };
  const Config configs[] = {
      {{.border = BorderUpdate::InKernel}, "V(2,2), defaults, border in kernel"},
      {{.border = BorderUpdate::InKernel, .constantStencilTexels = 0}, "V(2,2), every level on the constant path"},
      {{.border = BorderUpdate::CopyPasses, .constantStencilTexels = 0},
       "V(2,2), every level on the constant path, border copies"},
      {{.cycle = CycleType::W, .border = BorderUpdate::CopyPasses, .constantStencilTexels = 0},
       "W(2,2), every level on the constant path, border copies"},
      {{.cycle = CycleType::W, .preSmoothing = 1, .postSmoothing = 1, .border = BorderUpdate::InKernel,
        .constantStencilTexels = kTexturesOnly, .tiledConstantStencilTexels = kTexturesOnly},
       "W(1,1), textures only"},
      {{.preSmoothing = 1, .postSmoothing = 3, .border = BorderUpdate::InKernel, .constantStencilTexels = 0},
       "V(1,3), every level on the constant path"},
      {{.preSmoothing = 0, .postSmoothing = 2, .coarseSolve = CoarseSolve::Jacobi, .border = BorderUpdate::CopyPasses,
        .coarseIterations = 5},
       "V(0,2), Jacobi coarsest solve, border copies"},
      {{.preSmoothing = 3, .postSmoothing = 0, .coarseSolve = CoarseSolve::Jacobi, .border = BorderUpdate::InKernel,
        .coarseIterations = 1},
       "V(3,0), one coarsest sweep"},
      {{.cycle = CycleType::W, .preSmoothing = 0, .postSmoothing = 1, .border = BorderUpdate::InKernel},
       "W(0,1)"},
  };
  for (Problem p : {Problem::Obstacle, Problem::VariableHelmholtz, Problem::Random}) {
    for (auto [nx, ny] : std::vector<std::pair<int, int>>{{45, 38}, {33, 17}}) {
      const GridStencil A = makeProblem(p, nx, ny);
      const std::vector<float> xs = test::randomFloats(A.nodes(), 71), bs = test::randomFloats(A.nodes(), 72);
      for (const Config& c : configs) {
        INFO(problemName(p) << ", " << nx << "x" << ny << ", " << c.what);
        Multigrid mg(A, c.o);
        REQUIRE(mg.levels() >= 3);
        CpuCycle cpu(mg);
        cpu.x() = test::toDouble(xs);
        cpu.b() = test::toDouble(bs);
        for (int j = 0; j < ny; ++j)
          for (int i = 0; i < nx; ++i)
            if (A.isFixed(i, j)) cpu.x()[std::size_t(j) * nx + i] = cpu.b()[std::size_t(j) * nx + i];
        cpu.cycle(0, false);
        const std::vector<float> got = mg.grid(0).unlayerHost(runCycles(mg, xs, bs, 1));
        CHECK(test::maxRelativeError(got, cpu.x()) < 2e-5);
      }
    }
  }
}

TEST_CASE("Multigrid: the one-dispatch block cycle of the coarse levels matches the multi-pass cycle",
          "[multigrid][gl][compute]") {
  test::context();
  // The block cycle is compute-only: the fragment backend's multi-pass V-cycle is the reference.
  stream::BackendScope compute(stream::Backend::Compute);
  for (Problem p : {Problem::Obstacle, Problem::NeumannObstacle, Problem::VariableHelmholtz, Problem::Random}) {
    // 17x17: the block is the whole hierarchy (the finest level's own x is read); the
    // others start it further down.
    for (auto [nx, ny] : std::vector<std::pair<int, int>>{{17, 17}, {33, 33}, {100, 37}, {65, 65}, {129, 129}}) {
      const GridStencil A = makeProblem(p, nx, ny);
      const std::vector<float> xs = test::randomFloats(A.nodes(), 71), bs = test::randomFloats(A.nodes(), 72);
      struct Setting {
        int pre, post;
        CoarseSolve coarse;
        BorderUpdate border;
      };
      for (const Setting s : {Setting{2, 2, CoarseSolve::Direct, BorderUpdate::InKernel},
                              Setting{0, 1, CoarseSolve::Direct, BorderUpdate::CopyPasses},
                              Setting{3, 0, CoarseSolve::Jacobi, BorderUpdate::InKernel}}) {
        INFO(problemName(p) << ", " << nx << "x" << ny << ", V(" << s.pre << "," << s.post << "), "
                            << solvers::coarseSolveName(s.coarse) << " coarse solve, "
                            << solvers::borderUpdateName(s.border));
        MultigridOptions o{.preSmoothing = s.pre, .postSmoothing = s.post, .coarseSolve = s.coarse, .border = s.border};
        Multigrid mg = makeMultigrid(p, A, o);
        REQUIRE(mg.blockCycleInfo().level >= 0);
        const std::vector<float> got = runCycles(mg, xs, bs, 2);
        std::vector<float> ref;
        {
          stream::BackendScope fragment(stream::Backend::Fragment);
          ref = runCycles(mg, xs, bs, 2);
        }
        CHECK(test::maxRelativeError(got, test::toDouble(ref)) < 2e-5);
        // The block level's border comes out in sync: so does the finest level's.
        CHECK(got == mg.grid(0).layerHost(mg.grid(0).unlayerHost(got)));
      }
    }
  }
}

TEST_CASE("Multigrid: the block cycle takes constant stencils from uniforms", "[multigrid][gl][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  const GridStencil A = GridStencil::poisson(129, 129, solvers::GridBoundaries::all(solvers::Boundary::Dirichlet), "A");
  Multigrid mg(A, {.preSmoothing = 2, .postSmoothing = 2});
  const Multigrid::BlockCycleInfo info = mg.blockCycleInfo();
  REQUIRE(info.level > 0);
  std::size_t nodes = 0;
  for (int l = info.level; l < mg.levels(); ++l) nodes += mg.grid(l).nodes();
  CHECK(info.nodes == nodes);
  // Galerkin operators of the 5-point Laplacian are one 9-point stencil away from the
  // boundary: most nodes are flagged, the fixed boundary ring and its neighbours are not.
  CHECK(info.constantNodes > nodes / 2);
  CHECK(info.constantNodes < nodes);

  const std::vector<float> xs = test::randomFloats(A.nodes(), 81), bs = test::randomFloats(A.nodes(), 82);
  const std::vector<float> block = runCycles(mg, xs, bs, 2);
  std::vector<float> passes;
  {
    stream::BackendScope fragment(stream::Backend::Fragment);
    passes = runCycles(mg, xs, bs, 2);
  }
  CHECK(test::maxRelativeError(block, test::toDouble(passes)) < 2e-5);
}
