// Bajaj et al. 2004, §4.1: the enhanced block Jacobi method, slab by slab, with the S block
// evaluated by a generated kernel (EbjSlabKernel.h; src/codegen writes it).
#include <texstream/solvers/stationary/EnhancedBlockJacobi.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/solvers/SolveRecorder.h>
#include <texstream/solvers/StationaryLoop.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Scalar.h>

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace texstream::solvers {
inline namespace stationary {

namespace {

using stream::Pass;
using stream::Rect;
using stream::Vector;

void requireCells(const EbjGrid& g) {
  if (g.nx < 1 || g.ny < 1 || g.nz < 1) {
    throw std::invalid_argument("EnhancedBlockJacobi: grid " + std::to_string(g.nx) + "x" + std::to_string(g.ny) +
                                "x" + std::to_string(g.nz) + " is empty (nx, ny, nz must be >= 1)");
  }
}

const EbjGrid& validated(const EbjGrid& g) {
  g.validate();
  return g;
}

/// Whether perm holds each line position 0 .. nx - 1 once.
bool isLinePermutation(std::span<const int> perm, int nx) {
  std::vector<int> sorted(perm.begin(), perm.end());
  std::sort(sorted.begin(), sorted.end());
  bool ok = sorted.size() == std::size_t(nx);
  for (std::size_t q = 0; ok && q < sorted.size(); ++q) ok = sorted[q] == int(q);
  return ok;
}

/// The kernel, checked against the grid it is to run on.
EbjSlabKernel checked(EbjSlabKernel k, const EbjGrid& g) {
  if (k.length != g.nx || k.dimensions != g.dimensions() || k.ends != g.x || !isLinePermutation(k.permutation, g.nx) ||
      k.blocksRead.size() != std::size_t(g.nx / 4) || k.name.empty()) {
    throw std::invalid_argument("EnhancedBlockJacobi: the slab kernel \"" + k.name + "\" is for lines of " +
                                std::to_string(k.length) + " unknowns in " + std::to_string(k.dimensions) + "D with " +
                                ebjBoundaryName(k.ends) + " ends, not for the grid " + g.describe() +
                                " (codegen::ebjSlabKernel(grid) writes one)");
  }
  return k;
}

}  // namespace

void EbjGrid::validate() const {
  requireCells(*this);
  if (nx % 4 != 0 || nx > kEbjMaxLineLength) {
    throw std::invalid_argument("EnhancedBlockJacobi: grid " + describe() + ": nx = " + std::to_string(nx) +
                                " is not supported; the x-lines are packed four unknowns to a texel, so nx must be a "
                                "multiple of 4 in [4, " + std::to_string(kEbjMaxLineLength) +
                                "] (orient the grid so that such a side runs along x)");
  }
}

bool EbjGrid::singular() const {
  return x == EbjBoundary::Neumann && y == EbjBoundary::Neumann && (nz == 1 || z == EbjBoundary::Neumann);
}

std::string EbjGrid::describe() const {
  // Built by appending (GCC 12 warns falsely on "literal" + std::string).
  std::string s = std::to_string(nx);
  s += 'x';
  s += std::to_string(ny);
  if (nz != 1) {
    s += 'x';
    s += std::to_string(nz);
  }
  s += " (x ";
  s += ebjBoundaryName(x);
  s += ", y ";
  s += ebjBoundaryName(y);
  if (nz != 1) {
    s += ", z ";
    s += ebjBoundaryName(z);
  }
  s += ')';
  return s;
}

EnhancedBlockJacobi::EnhancedBlockJacobi(const EbjGrid& grid, EbjSlabKernel kernel, std::string name)
    : m_grid(validated(grid)), m_name(std::move(name)), m_kernel(checked(std::move(kernel), grid)) {
  m_position = m_kernel.position();
  m_kernel.registerSource();
  const std::size_t slabTexels = std::size_t(m_grid.ny) * std::size_t(m_grid.nz);
  m_slabLayout = stream::Layout::withWidth(4 * slabTexels, m_grid.ny);
  m_packedLayout = stream::Layout::withWidth(m_grid.cells(), m_grid.ny);
  for (int s = 0; s < slabs(); ++s) m_slabs.emplace_back(m_slabLayout, m_name + ".slab" + std::to_string(s));
  m_f = Vector(m_packedLayout, m_name + ".f");
  m_scratch = Vector(m_packedLayout, m_name + ".packed");
}

namespace {

/// A's rows: centre and the six neighbour coefficients (-1, or 0 beyond the grid, where a
/// Neumann side lowers the centre by one), x fastest.
linalg::SevenPointCoefficients coefficients(const EbjGrid& g) {
  const std::size_t n = g.cells();
  const bool threeD = g.dimensions() == 3;
  linalg::SevenPointCoefficients c;
  for (auto* v : {&c.center, &c.west, &c.east, &c.south, &c.north, &c.down, &c.up}) v->assign(n, 0.0f);
  std::size_t p = 0;
  for (int k = 0; k < g.nz; ++k) {
    for (int j = 0; j < g.ny; ++j) {
      for (int i = 0; i < g.nx; ++i, ++p) {
        float d = threeD ? 6.0f : 4.0f;
        auto side = [&](bool inside, EbjBoundary b, std::vector<float>& coefficient) {
          coefficient[p] = inside ? -1.0f : 0.0f;
          if (!inside && b == EbjBoundary::Neumann) d -= 1.0f;
        };
        side(i > 0, g.x, c.west);
        side(i + 1 < g.nx, g.x, c.east);
        side(j > 0, g.y, c.south);
        side(j + 1 < g.ny, g.y, c.north);
        if (threeD) {
          side(k > 0, g.z, c.down);
          side(k + 1 < g.nz, g.z, c.up);
        }
        c.center[p] = d;
      }
    }
  }
  return c;
}

}  // namespace

void ebjReferenceSweep(const EbjGrid& g, std::span<const int> perm, std::span<const double> f, std::vector<double>& x) {
  g.validate();
  const std::size_t cells = g.cells();
  if (f.size() != cells || x.size() != cells) {
    throw std::invalid_argument("ebjReferenceSweep: grid " + g.describe() + " has " + std::to_string(cells) +
                                " cells, f has " + std::to_string(f.size()) + " and x " + std::to_string(x.size()));
  }
  if (!isLinePermutation(perm, g.nx)) {
    throw std::invalid_argument("ebjReferenceSweep: the permutation (" + std::to_string(perm.size()) +
                                " entries) is not one of the line positions 0.." + std::to_string(g.nx - 1));
  }
  const int dims = g.dimensions();
  auto at = [&](int i, int j, int k) {
    return std::size_t(i) + std::size_t(g.nx) * (std::size_t(j) + std::size_t(g.ny) * std::size_t(k));
  };
  std::vector<double> next(4 * std::size_t(g.ny) * std::size_t(g.nz));
  for (int s = 0; s < g.nx / 4; ++s) {
    std::size_t o = 0;
    for (int k = 0; k < g.nz; ++k)
      for (int j = 0; j < g.ny; ++j)
        for (int lane = 0; lane < 4; ++lane) {
          const int i = perm[std::size_t(4 * s + lane)];
          const std::size_t p = at(i, j, k);
          const bool end = i == 0 || i == g.nx - 1;
          const double d = 2.0 * dims - (end && g.x == EbjBoundary::Neumann ? 1.0 : 0.0);
          double sum = f[p];
          if (i > 0) sum += x[at(i - 1, j, k)];
          if (i + 1 < g.nx) sum += x[at(i + 1, j, k)];
          auto side = [&](int jj, int kk, EbjBoundary b) {
            if (jj < 0 || jj >= g.ny || kk < 0 || kk >= g.nz) sum += b == EbjBoundary::Neumann ? x[p] : 0.0;
            else sum += x[at(i, jj, kk)];
          };
          side(j - 1, k, g.y);
          side(j + 1, k, g.y);
          if (dims == 3) {
            side(j, k - 1, g.z);
            side(j, k + 1, g.z);
          }
          next[o++] = sum / d;
        }
    o = 0;
    for (int k = 0; k < g.nz; ++k)
      for (int j = 0; j < g.ny; ++j)
        for (int lane = 0; lane < 4; ++lane) x[at(perm[std::size_t(4 * s + lane)], j, k)] = next[o++];
  }
}

linalg::Csr ebjPoissonCsr(const EbjGrid& g) {
  requireCells(g);
  const linalg::SevenPointCoefficients c = coefficients(g);
  const std::int64_t sx = 1, sy = g.nx, sz = std::int64_t(g.nx) * g.ny;
  const std::pair<const std::vector<float>*, std::int64_t> entries[] = {
      {&c.down, -sz}, {&c.south, -sy}, {&c.west, -sx}, {&c.center, 0}, {&c.east, sx}, {&c.north, sy}, {&c.up, sz}};
  std::vector<std::int64_t> rows, cols;
  std::vector<double> values;
  for (std::int64_t p = 0; p < std::int64_t(g.cells()); ++p) {
    for (const auto& [coefficient, offset] : entries) {
      const float v = (*coefficient)[std::size_t(p)];
      if (v == 0.0f) continue;
      rows.push_back(p);
      cols.push_back(p + offset);
      values.push_back(v);
    }
  }
  return linalg::Csr::fromTriplets(g.cells(), g.cells(), rows, cols, values);
}

linalg::StencilMatrix ebjPoissonMatrix(const EbjGrid& g, std::string name) {
  requireCells(g);
  linalg::SevenPointCoefficients c = coefficients(g);
  const auto nx = std::size_t(g.nx), ny = std::size_t(g.ny);
  if (g.dimensions() == 2) {
    return linalg::StencilMatrix::fivePoint(nx, ny, {std::move(c.center), std::move(c.west), std::move(c.east),
                                                     std::move(c.south), std::move(c.north)},
                                            std::move(name));
  }
  return linalg::StencilMatrix::sevenPoint(nx, ny, std::size_t(g.nz), c, std::move(name));
}

void EnhancedBlockJacobi::requireNatural(const char* what, const Vector& v) const {
  if (v.empty()) throw gl::Error(std::string(what) + "(" + quoted(m_name) + "): the vector is empty");
  if (v.size() != size()) {
    throw gl::Error(std::string(what) + "(" + quoted(m_name) + "): vector " + quoted(v.name()) + " has n=" +
                    std::to_string(v.size()) + ", the " + m_grid.describe() + " grid has " + std::to_string(size()) +
                    " cells");
  }
}

void EnhancedBlockJacobi::packInto(const Vector& natural, int s, Vector& out, int offset) const {
  const auto& perm = m_kernel.permutation;
  const std::size_t q = std::size_t(4 * s);
  Pass("ebj/pack")
      .label("ebj pack")
      .input("u_natural", natural)
      .uniform("u_lines", perm[q], perm[q + 1], perm[q + 2], perm[q + 3])
      .uniform("u_nx", m_grid.nx)
      .uniform("u_ny", m_grid.ny)
      .uniform("u_outputOffset", offset)
      .output(out)
      .run({Rect{0, offset, m_grid.ny, m_grid.nz}});
}

void EnhancedBlockJacobi::load(const Vector& f, const Vector* x) {
  requireNatural("EnhancedBlockJacobi::load: f", f);
  if (x) requireNatural("EnhancedBlockJacobi::load: x", *x);
  gl::StateGuard guard;
  for (int s = 0; s < slabs(); ++s) {
    packInto(f, s, m_f, s * m_grid.nz);
    if (x) packInto(*x, s, m_slabs[std::size_t(s)], 0);
    else m_slabs[std::size_t(s)].setZero();
  }
}

void EnhancedBlockJacobi::runSlab(int s, bool residual) {
  Pass pass(m_kernel.name);
  pass.label(residual ? "ebj residual" : "ebj slab")
      .define("EBJ_SLAB", (long long)s)
      .define("EBJ_DIMENSIONS", (long long)m_grid.dimensions());
  if (m_grid.y == EbjBoundary::Neumann) pass.define("EBJ_NEUMANN_Y");
  if (m_grid.dimensions() == 3 && m_grid.z == EbjBoundary::Neumann) pass.define("EBJ_NEUMANN_Z");
  Vector& self = m_slabs[std::size_t(s)];
  pass.input("u_self", self).input("u_f", m_f);
  for (int J : m_kernel.blocksRead[std::size_t(s)]) {
    if (J != s) pass.input("u_block" + std::to_string(J), m_slabs[std::size_t(J)]);
  }
  pass.uniform("u_residual", residual ? 1 : 0);
  if (residual) {
    // Into rows [s nz, (s + 1) nz) of the packed residual.
    pass.uniform("u_outputOffset", s * m_grid.nz).output(m_scratch).run({Rect{0, s * m_grid.nz, m_grid.ny, m_grid.nz}});
  } else {
    // The slab reads its own old texels, so the pass renders into a fresh texture that
    // then replaces it (stream/Pass.h); the slabs it reads are other textures.
    pass.uniform("u_outputOffset", 0).output(self).run();
  }
}

void EnhancedBlockJacobi::sweep(int sweeps) {
  if (sweeps < 0) throw std::invalid_argument("EnhancedBlockJacobi::sweep: sweeps must be >= 0, got " + std::to_string(sweeps));
  gl::StateGuard guard;
  for (int k = 0; k < sweeps; ++k) {
    for (int s = 0; s < slabs(); ++s) runSlab(s, false);
  }
}

double EnhancedBlockJacobi::residualNorm() {
  gl::StateGuard guard;
  for (int s = 0; s < slabs(); ++s) runSlab(s, true);
  stream::Scalar rr(m_name + ".rr");
  stream::dot(m_scratch, m_scratch, rr);
  return std::sqrt(double(rr.read()));
}

double EnhancedBlockJacobi::rhsNorm() {
  gl::StateGuard guard;
  stream::Scalar ff(m_name + ".ff");
  stream::dot(m_f, m_f, ff);
  return std::sqrt(double(ff.read()));
}

void EnhancedBlockJacobi::store(Vector& x) {
  requireNatural("EnhancedBlockJacobi::store: x", x);
  gl::StateGuard guard;
  for (int s = 0; s < slabs(); ++s) {
    Pass("ebj/copy_slab")
        .label("ebj copy slab")
        .input("u_slab", m_slabs[std::size_t(s)])
        .uniform("u_outputOffset", s * m_grid.nz)
        .output(m_scratch)
        .run({Rect{0, s * m_grid.nz, m_grid.ny, m_grid.nz}});
  }
  Pass("ebj/unpack")
      .label("ebj unpack")
      .define("EBJ_LINE", (long long)m_grid.nx)
      .input("u_packed", m_scratch)
      .uniformArray("u_position", m_position)
      .uniform("u_ny", m_grid.ny)
      .uniform("u_nz", m_grid.nz)
      .uniform("u_n", int(x.size()))
      .uniform("u_outputWidth", x.layout().width())
      .output(x)
      .run();
}

SolverStatus EnhancedBlockJacobi::run(const Vector& f, Vector& x, const IterativeOptions& options) {
  const IterationLimits limits = resolveLimits("enhancedBlockJacobi", options, kEbjDefaults);
  SolveRecorder recorder("enhancedBlockJacobi(" + quoted(m_name) + ")", options.onCheck, limits.checks());
  gl::StateGuard guard;
  stream::BackendScope backendScope(options.backend);
  stream::Runtime::current().requireBackend(stream::Runtime::current().backend());
  load(f, &x);

  double fnorm = 0;
  if (limits.checks()) {
    fnorm = rhsNorm();
    if (std::optional<Verdict> v = rightHandSideVerdict(fnorm, "f", f.name(), recorder)) {
      if (v->outcome == Outcome::Converged) load(f, nullptr);
      store(x);
      return recorder.finish(*v);
    }
  }
  StationaryLoop loop;
  loop.residual = "||f - A x||/||f||";
  loop.nonFiniteCause = "x " + quoted(x.name()) + " held NaN or Inf, or the iteration overflowed";
  loop.relativeResidual = [&] { return residualNorm() / fnorm; };
  loop.step = [&](int) { sweep(1); };
  Verdict verdict = runStationary(loop, limits, recorder);
  if (verdict.outcome == Outcome::MaxIterations && m_grid.singular() && !limits.fixed) {
    stream::Scalar total = stream::Scalar::temporary("ebj.sum_f");
    stream::sum(f, total);
    const double mean = double(total.read()) / double(size());
    verdict.message += "; the grid is Neumann in every direction, so A is singular and f must have zero mean (its mean is " +
                       formatNumber(mean) + ")";
  }
  store(x);
  return recorder.finish(verdict);
}

SolverStatus enhancedBlockJacobi(EnhancedBlockJacobi& ebj, const Vector& f, Vector& x, const IterativeOptions& options) {
  return ebj.solve(f, x, options);
}

void enhancedBlockJacobiSmooth(EnhancedBlockJacobi& ebj, const Vector& f, Vector& x, int sweeps) {
  if (sweeps < 0) {
    throw std::invalid_argument("enhancedBlockJacobiSmooth: sweeps must be >= 0, got " + std::to_string(sweeps));
  }
  ebj.load(f, &x);
  if (sweeps == 0) return;
  ebj.sweep(sweeps);
  ebj.store(x);
}

}  // namespace stationary
}  // namespace texstream::solvers
