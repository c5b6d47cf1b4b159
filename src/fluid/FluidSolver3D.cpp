// Smoke (Fedkiw, Stam & Jensen 2001) and liquid (Enright, Marschner & Fedkiw 2002) in 3D on a
// MAC grid of flat 3D textures, one pass of a kernel in shaders/fluid3d/ per operation, the
// pressure projected by PressureSolver3D on PressureMatrix3D with the ghost-fluid free
// surface (Gibou et al. 2002; Batty, Wiebe & Houston 2003).
//
// A step:
//  1. the moving sphere's cells and velocity at the step's end (fluid3d/solids);
//  2. the cells' field advected through the last step's (projected) velocity: smoke's
//     density and temperature with the source, or the level set (fluid3d/advect_scalars);
//  3. liquid: redistancing sweeps, the first of which shifts phi by the global volume
//     correction from the volume measured at the end of the last one (fluid3d/redistance),
//     then the volume measured again (fluid3d/volume and two sums);
//  4. smoke: buoyancy and confinement at the cell centres (fluid3d/curl, fluid3d/forces);
//  5. the velocity advected through itself (semi-Lagrangian, or MacCormack in three passes),
//     with gravity and the cells' forces added and the boundary velocities imposed in the
//     last pass (fluid3d/advect_velocity);
//  6. where the fluid's cells changed (liquid, moving sphere): labels (fluid3d/labels), the
//     matrix and the preconditioner rebuilt on the GPU;
//  7. b = -div u (fluid3d/divergence), A q = b by PressureSolver3D, warm-started from the
//     last step's q, then the faces corrected (fluid3d/subtract_gradient);
//  8. liquid: the velocity extrapolated into the air, layer by layer (fluid3d/extrapolate).
#include <texstream/fluid/FluidSolver3D.h>

#include <texstream/fluid/FluidKernels3D.h>

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/PressureMatrix3D.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace texstream::fluid {

namespace {

using linalg::CellLabel;
using stream::GridField3D;
using stream::GridLayout3D;

constexpr stream::EnumName<Scene3D> kScene3DNames[] = {
    {Scene3D::Smoke, "smoke", "smoke"},
    {Scene3D::SmokeSphere, "smoke-sphere", "smoke around spheres"},
    {Scene3D::DamBreak, "dam-break", "dam break"},
    {Scene3D::Drop, "drop", "drop into a pool"},
    {Scene3D::Pool, "pool", "pool at rest"},
};

/// What a scene picks where the parameters say "default".
struct Defaults3D {
  int nx, ny, nz;
  double dtCells;  ///< dt = dtCells h: about one cell a step at the scene's typical speed
  double vorticity, buoyancy, densityWeight, dissipation;
};

Defaults3D defaultsOf(Scene3D s) {
  switch (s) {
    case Scene3D::Smoke:
    case Scene3D::SmokeSphere: return {64, 64, 96, 1.5, 0.3, 1.0, 0.1, 0.1};
    case Scene3D::DamBreak: return {64, 32, 48, 0.5, 0.0, 0.0, 0.0, 0.0};
    case Scene3D::Drop: return {48, 48, 48, 0.5, 0.0, 0.0, 0.0, 0.0};
    case Scene3D::Pool: return {32, 32, 32, 0.5, 0.0, 0.0, 0.0, 0.0};
  }
  return {32, 32, 32, 1.0, 0.0, 0.0, 0.0, 0.0};
}

/// The smallest grid side a scene is laid out on.
constexpr int kMinSide = 4;
/// Layers of the liquid's velocity extrapolation into the air: the faces a step's
/// back-traces reach beyond the surface (about one cell a step at the default dt) and a
/// margin for the surface's own motion.
constexpr int kExtrapolationLayers = 4;
/// Redistancing sweeps a step: the signed distance is exact this many cells from the
/// surface; the surface moves about a cell a step.
constexpr int kRedistanceSweeps = 4;
/// Smoke's source: the rate (per unit time) at which its sphere's cells approach density
/// and temperature 1.
constexpr double kSourceRate = 10.0;

std::string sceneTitle(Scene3D s) { return std::string("FluidSolver3D(\"") + scene3DName(s) + "\")"; }

}  // namespace

std::span<const stream::EnumName<Scene3D>> scene3DNames() { return kScene3DNames; }
const char* scene3DName(Scene3D s) { return stream::nameOf(scene3DNames(), s); }
bool isLiquid(Scene3D s) { return s == Scene3D::DamBreak || s == Scene3D::Drop || s == Scene3D::Pool; }

struct FluidSolver3D::Impl {
  std::string title;
  int nx = 0, ny = 0, nz = 0;
  double h = 0, time = 0;
  long long steps = 0;
  bool liquid = false;
  MacGrid3D grid;
  GridField3D velocity;      ///< faces: u, v, w (domain units / time), .w 0 between steps
  GridField3D scalars;       ///< cells: smoke density, temperature; liquid phi (cells)
  GridField3D solids;        ///< cells: .x 1 in solid cells, .yzw the solid's velocity
  GridField3D staticSolids;  ///< cells: .x 1 in static obstacles (scenes that have them)
  GridField3D curl;          ///< cells: vorticity (smoke with confinement)
  std::unique_ptr<linalg::PressureMatrix3D> A;
  std::unique_ptr<solvers::PressureSolver3D> solver;
  GridField3D labels, levelSet, rhs, q;  ///< packed, on A's grid
  stream::Scalar volume, band, scratch;
  double targetVolume = 0;  ///< liquid: the initial volume (cells)
  int lastIterations = 0;   ///< the previous projection's CG iterations (0: none yet)
  StepStats3D stats;

  // The step's parts (see the top of this file); p: the solver's parameters.
  void buildPressure(const FluidParameters3D& p);
  void updatePressure(const FluidParameters3D& p);
  void updateSolids(const FluidParameters3D& p, double t);
  void advectVelocity(const FluidParameters3D& p);
  void advectScalars(const FluidParameters3D& p);
  void measureVolume();
  void redistance(const FluidParameters3D& p);
  void project(const FluidParameters3D& p);
  void extrapolateVelocity();
};

bool hasSphere(const FluidParameters3D& p) { return p.scene == Scene3D::SmokeSphere && p.movingSphere; }

namespace {

/// The moving sphere of smoke-sphere at time t: centre (domain units) and radius, and its
/// velocity: a circle around the vertical axis above the static sphere.
struct SphereState {
  std::array<double, 3> centre, velocity;
  double radius;
};

SphereState movingSphereAt(double t, double lx, double ly, double lz) {
  const double side = std::min(lx, ly), orbit = 0.24 * side, omega = 1.5;
  SphereState s;
  s.centre = {0.5 * lx + orbit * std::cos(omega * t), 0.5 * ly + orbit * std::sin(omega * t), 0.68 * lz};
  s.velocity = {-orbit * omega * std::sin(omega * t), orbit * omega * std::cos(omega * t), 0.0};
  s.radius = 0.09 * side;
  return s;
}

/// The static sphere of smoke-sphere (cell units): centre and radius.
std::array<double, 4> staticSphere(int nx, int ny, int nz) {
  return {0.5 * nx, 0.5 * ny, 0.4 * nz, 0.16 * std::min(nx, ny)};
}

/// The initial level set of a liquid scene (cells, < 0 inside), x fastest.
std::vector<float> initialLevelSet(Scene3D scene, int nx, int ny, int nz) {
  std::vector<float> phi(std::size_t(nx) * std::size_t(ny) * std::size_t(nz));
  std::size_t c = 0;
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i, ++c) {
        const double x = i + 0.5, y = j + 0.5, z = k + 0.5;
        double d = 0;
        switch (scene) {
          case Scene3D::DamBreak: {
            // A column against the -x wall, the whole width: its free sides are x = a, z = b.
            const double a = 0.35 * nx, b = 0.6 * nz;
            const double dx = x - a, dz = z - b;
            d = (dx > 0 && dz > 0) ? std::sqrt(dx * dx + dz * dz) : std::max(dx, dz);
            break;
          }
          case Scene3D::Drop: {
            const double pool = z - (0.3 * nz + 0.3);
            const double r = 0.15 * std::min({nx, ny, nz});
            const double dx = x - 0.5 * nx, dy = y - 0.5 * ny, dz = z - 0.7 * nz;
            d = std::min(pool, std::sqrt(dx * dx + dy * dy + dz * dz) - r);
            break;
          }
          default:
            // Pool: the surface between cell centres (0.3 cell above one), so that its faces
            // take the second-order coefficients.
            d = z - (std::floor(0.45 * nz) + 0.3);
            break;
        }
        phi[c] = float(d);
      }
    }
  }
  return phi;
}

}  // namespace

solvers::IterativeOptions FluidParameters3D::defaultPressure() {
  solvers::IterativeOptions o;
  o.tolerance = 1e-4f;
  o.maxIterations = 200;
  return o;
}

FluidSolver3D::FluidSolver3D(const FluidParameters3D& params) : m_params(params), m_impl(std::make_unique<Impl>()) {
  Impl& I = *m_impl;
  const Scene3D scene = params.scene;
  if (stream::indexOf(scene3DNames(), scene) < 0) throw std::invalid_argument("FluidSolver3D: unknown scene");
  I.title = sceneTitle(scene);
  const Defaults3D d = defaultsOf(scene);
  I.nx = params.nx > 0 ? params.nx : d.nx;
  I.ny = params.ny > 0 ? params.ny : d.ny;
  I.nz = params.nz > 0 ? params.nz : d.nz;
  if (params.nx < 0 || params.ny < 0 || params.nz < 0 || I.nx < kMinSide || I.ny < kMinSide || I.nz < kMinSide) {
    throw std::invalid_argument(I.title + ": the grid " + std::to_string(params.nx) + "x" + std::to_string(params.ny) +
                                "x" + std::to_string(params.nz) + " has a side below " + std::to_string(kMinSide) +
                                " cells (0 picks the scene's default)");
  }
  I.liquid = isLiquid(scene);
  I.h = 1.0 / double(std::max({I.nx, I.ny, I.nz}));
  m_params.nx = I.nx;
  m_params.ny = I.ny;
  m_params.nz = I.nz;
  if (!(params.dt >= 0) || !std::isfinite(params.dt)) {
    throw std::invalid_argument(I.title + ": dt must be finite and >= 0 (0: the scene's default), not " +
                                std::to_string(params.dt));
  }
  m_params.dt = params.dt > 0 ? params.dt : d.dtCells * I.h;
  m_params.vorticity = params.vorticity >= 0 ? params.vorticity : d.vorticity;
  m_params.buoyancy = params.buoyancy >= 0 ? params.buoyancy : d.buoyancy;
  m_params.densityWeight = params.densityWeight >= 0 ? params.densityWeight : d.densityWeight;
  m_params.dissipation = params.dissipation >= 0 ? params.dissipation : d.dissipation;
  setParameters(m_params);  // the rest of the checks, once

  const std::string why = unsupportedReason(m_params);
  if (!why.empty()) throw gl::Error(why);

  gl::StateGuard guard;
  // The velocity's grid is the largest: its error names the limit first.
  I.grid = MacGrid3D(I.nx, I.ny, I.nz, I.title);
  I.velocity = GridField3D(I.grid.faces(), "fluid3d.velocity");
  I.scalars = GridField3D(I.grid.cells(), "fluid3d.scalars");
  I.solids = GridField3D(I.grid.cells(), "fluid3d.solids");
  if (scene == Scene3D::SmokeSphere) I.staticSolids = GridField3D(I.grid.cells(), "fluid3d.staticSolids");
  I.buildPressure(m_params);
  I.volume = stream::Scalar("fluid3d.volume");
  I.band = stream::Scalar("fluid3d.band");
  I.scratch = stream::Scalar("fluid3d.statistic");
  reset();
}

FluidSolver3D::~FluidSolver3D() = default;
FluidSolver3D::FluidSolver3D(FluidSolver3D&&) noexcept = default;
FluidSolver3D& FluidSolver3D::operator=(FluidSolver3D&&) noexcept = default;

std::string FluidSolver3D::unsupportedReason(const FluidParameters3D& params) {
  const gl::Capabilities& caps = gl::capabilities();
  if (caps.floatRenderTargets) return "";
  return sceneTitle(params.scene) + ": the 3D " + (isLiquid(params.scene) ? "liquid" : "smoke") +
         " scenes need RGBA32F render targets (the pressure solve, the level set and the velocity are 32-bit "
         "floats; the 3D solver has no half-float mode, unlike the 2D fluid): " +
         caps.floatTargetsMissing();
}

void FluidSolver3D::Impl::buildPressure(const FluidParameters3D& p) {
  linalg::PressureMatrix3D::Shape shape;
  shape.nx = nx;
  shape.ny = ny;
  shape.nz = nz;
  shape.outside.fill(CellLabel::Solid);
  if (!liquid && p.openTop) shape.outside[linalg::kZHigh] = CellLabel::Air;
  solver.reset();
  A = std::make_unique<linalg::PressureMatrix3D>(shape, "fluid3d.pressure");
  if (labels.empty()) {
    labels = GridField3D(grid.packed(), "fluid3d.labels");
    rhs = GridField3D(grid.packed(), "fluid3d.rhs");
    q = GridField3D(grid.packed(), "fluid3d.q");
    if (liquid) levelSet = GridField3D(grid.packed(), "fluid3d.levelSet");
  }
}

void FluidSolver3D::Impl::updatePressure(const FluidParameters3D& p) {
  cellLabels3D(grid, solids, liquid ? &scalars : nullptr, labels, liquid ? &levelSet : nullptr);
  // A box of smoke closed on every side is one region without air: its pressure is defined
  // up to a constant (PressureSolver3D projects the right-hand side's mean out).
  const bool floating = !liquid && !p.openTop;
  A->update(labels, liquid ? &levelSet : nullptr, nullptr, floating);
  if (solver) solver->update();
  else solver = std::make_unique<solvers::PressureSolver3D>(*A, p.preconditioner, p.multigrid);
}

void FluidSolver3D::Impl::updateSolids(const FluidParameters3D& p, double t) {
  if (!hasSphere(p)) return;
  const SphereState s = movingSphereAt(t, nx * h, ny * h, nz * h);
  solidCells3D(grid, staticSolids.empty() ? nullptr : &staticSolids,
               {float(s.centre[0] / h), float(s.centre[1] / h), float(s.centre[2] / h), float(s.radius / h)},
               {float(s.velocity[0]), float(s.velocity[1]), float(s.velocity[2])}, solids);
}

void FluidSolver3D::reset() {
  Impl& I = *m_impl;
  gl::StateGuard guard;
  I.time = 0;
  I.steps = 0;
  I.stats = {};
  I.velocity.setZero();
  I.q.setZero();
  const Scene3D scene = m_params.scene;
  if (I.liquid) {
    const std::vector<float> phi = initialLevelSet(scene, I.nx, I.ny, I.nz);
    I.scalars.uploadChannels({phi});
  } else {
    I.scalars.setZero();
  }
  I.solids.setZero();
  if (!I.staticSolids.empty()) {
    const auto [cx, cy, cz, r] = staticSphere(I.nx, I.ny, I.nz);
    std::vector<float> solid(I.grid.cells().cells(), 0.0f);
    std::size_t c = 0;
    for (int k = 0; k < I.nz; ++k)
      for (int j = 0; j < I.ny; ++j)
        for (int i = 0; i < I.nx; ++i, ++c) {
          const double dx = i + 0.5 - cx, dy = j + 0.5 - cy, dz = k + 0.5 - cz;
          solid[c] = dx * dx + dy * dy + dz * dz < r * r ? 1.0f : 0.0f;
        }
    I.staticSolids.uploadChannels({solid});
    if (!hasMovingSphere()) linalg::copy(I.staticSolids, I.solids);
  }
  I.updateSolids(m_params, 0.0);
  I.updatePressure(m_params);
  if (I.liquid) {
    I.measureVolume();
    I.targetVolume = double(I.volume.read());
    I.stats.liquidVolume = I.targetVolume * I.h * I.h * I.h;
  }
}

void FluidSolver3D::setParameters(const FluidParameters3D& params) {
  const std::string where = sceneTitle(m_params.scene) + "::setParameters";
  if (m_impl && m_impl->A) {
    if (params.scene != m_params.scene || (params.nx > 0 && params.nx != m_params.nx) ||
        (params.ny > 0 && params.ny != m_params.ny) || (params.nz > 0 && params.nz != m_params.nz)) {
      throw std::invalid_argument(where + ": a new scene or grid size needs a new solver");
    }
  }
  auto requireFinite = [&](double v, const char* name) {
    if (!std::isfinite(v)) throw std::invalid_argument(where + ": " + name + " must be finite, not " + std::to_string(v));
  };
  requireFinite(params.dt, "dt");
  requireFinite(params.vorticity, "vorticity");
  requireFinite(params.buoyancy, "buoyancy");
  requireFinite(params.densityWeight, "densityWeight");
  requireFinite(params.dissipation, "dissipation");
  requireFinite(params.gravity, "gravity");
  if (params.dt < 0) throw std::invalid_argument(where + ": dt must be >= 0 (0 keeps it), not " + std::to_string(params.dt));
  const solvers::IterativeOptions& cg = params.pressure;
  if (!(cg.tolerance >= 0) || !std::isfinite(cg.tolerance)) {
    throw std::invalid_argument(where + ": pressure.tolerance must be finite and >= 0 (0: a fixed number of iterations), not " +
                                std::to_string(cg.tolerance));
  }
  if (params.iterations < 1 || cg.maxIterations.value_or(1) < 1) {
    throw std::invalid_argument(where + ": iterations and pressure.maxIterations must be >= 1, not " +
                                std::to_string(params.iterations) + " and " + std::to_string(cg.maxIterations.value_or(1)));
  }
  if (stream::indexOf(advectionNames(), params.advection) < 0) throw std::invalid_argument(where + ": unknown advection");
  if (stream::indexOf(solvers::pressurePreconditionerNames(), params.preconditioner) < 0) {
    throw std::invalid_argument(where + ": unknown preconditioner");
  }
  FluidParameters3D next = params;
  next.nx = m_params.nx;
  next.ny = m_params.ny;
  next.nz = m_params.nz;
  if (next.dt == 0) next.dt = m_params.dt;
  if (next.vorticity < 0) next.vorticity = m_params.vorticity;
  if (next.buoyancy < 0) next.buoyancy = m_params.buoyancy;
  if (next.densityWeight < 0) next.densityWeight = m_params.densityWeight;
  if (next.dissipation < 0) next.dissipation = m_params.dissipation;
  const FluidParameters3D before = m_params;
  m_params = next;
  if (!m_impl || !m_impl->A) return;  // the constructor's own check
  Impl& I = *m_impl;
  gl::StateGuard guard;
  if (!I.liquid && before.openTop != m_params.openTop) {
    I.buildPressure(m_params);
    I.updatePressure(m_params);
  } else if (before.preconditioner != m_params.preconditioner ||
             before.multigrid.boundarySweeps != m_params.multigrid.boundarySweeps ||
             before.multigrid.boundaryWidth != m_params.multigrid.boundaryWidth) {
    I.solver = std::make_unique<solvers::PressureSolver3D>(*I.A, m_params.preconditioner, m_params.multigrid);
  }
  if (before.movingSphere != m_params.movingSphere && m_params.scene == Scene3D::SmokeSphere) {
    if (hasMovingSphere()) {
      I.updateSolids(m_params, I.time);
    } else {
      linalg::copy(I.staticSolids, I.solids);
    }
    I.updatePressure(m_params);
  }
}

int FluidSolver3D::nx() const { return m_impl->nx; }
int FluidSolver3D::ny() const { return m_impl->ny; }
int FluidSolver3D::nz() const { return m_impl->nz; }
double FluidSolver3D::h() const { return m_impl->h; }
double FluidSolver3D::dt() const { return m_params.dt; }
double FluidSolver3D::time() const { return m_impl->time; }
long long FluidSolver3D::steps() const { return m_impl->steps; }
const StepStats3D& FluidSolver3D::lastStats() const { return m_impl->stats; }
const GridField3D& FluidSolver3D::scalars() const { return m_impl->scalars; }
const GridField3D& FluidSolver3D::solids() const { return m_impl->solids; }
const GridField3D& FluidSolver3D::velocity() const { return m_impl->velocity; }
const GridField3D& FluidSolver3D::pressure() const { return m_impl->q; }

bool FluidSolver3D::hasMovingSphere() const { return hasSphere(m_params); }

std::array<float, 4> FluidSolver3D::movingSphere() const {
  if (!hasMovingSphere()) return {0, 0, 0, 0};
  const Impl& I = *m_impl;
  const SphereState s = movingSphereAt(I.time, I.nx * I.h, I.ny * I.h, I.nz * I.h);
  return {float(s.centre[0]), float(s.centre[1]), float(s.centre[2]), float(s.radius)};
}

void FluidSolver3D::setVelocity(std::span<const float> u, std::span<const float> v, std::span<const float> w) {
  Impl& I = *m_impl;
  const std::size_t n = I.grid.faces().cells();
  if (u.size() != n || v.size() != n || w.size() != n) {
    throw gl::Error(I.title + "::setVelocity: " + std::to_string(u.size()) + ", " + std::to_string(v.size()) + " and " +
                    std::to_string(w.size()) + " values for the " + I.grid.faces().describe() + " faces field (" +
                    std::to_string(n) + " each)");
  }
  // Each component's texels beyond its faces stay 0 (shaders/fluid3d/mac.glsl).
  std::array<std::vector<float>, 3> channels{std::vector<float>(u.begin(), u.end()),
                                             std::vector<float>(v.begin(), v.end()),
                                             std::vector<float>(w.begin(), w.end())};
  std::size_t c = 0;
  for (int k = 0; k <= I.nz; ++k)
    for (int j = 0; j <= I.ny; ++j)
      for (int i = 0; i <= I.nx; ++i, ++c) {
        if (j == I.ny || k == I.nz) channels[0][c] = 0;
        if (i == I.nx || k == I.nz) channels[1][c] = 0;
        if (i == I.nx || j == I.ny) channels[2][c] = 0;
      }
  gl::StateGuard guard;
  I.velocity.uploadChannels({channels[0], channels[1], channels[2]});
}

void FluidSolver3D::Impl::advectVelocity(const FluidParameters3D& p) {
  FaceForces3D forces;
  forces.dt = float(p.dt);
  forces.solids = &solids;
  if (!liquid && p.openTop) forces.closed[linalg::kZHigh] = false;
  if (liquid) forces.gravity = float(p.gravity);
  // Buoyancy and confinement at the cell centres, one pass (and the vorticity before it).
  CellForces3D cellForces;
  if (!liquid && (p.buoyancy != 0 || p.densityWeight != 0)) {
    cellForces.scalars = &scalars;
    cellForces.buoyancy = float(p.buoyancy);
    cellForces.densityWeight = float(p.densityWeight);
  }
  if (p.vorticity > 0) {
    if (curl.empty()) curl = GridField3D(grid.cells(), "fluid3d.curl");
    computeCurl3D(grid, velocity, float(h), curl);
    cellForces.curl = &curl;
    cellForces.vorticity = float(p.vorticity);
    cellForces.h = float(h);
  }
  GridField3D forcesField;
  if (cellForces.scalars || cellForces.curl) {
    forcesField = GridField3D::temporary(grid.cells(), "fluid3d.forces");
    computeCellForces3D(grid, cellForces, forcesField);
    forces.cellForces = &forcesField;
  }
  GridField3D next = GridField3D::temporary(grid.faces(), "fluid3d.velocity.next");
  advectVelocity3D(grid, velocity, float(p.dt / h), p.advection, forces, next);
  std::swap(velocity, next);
}

void FluidSolver3D::Impl::advectScalars(const FluidParameters3D& p) {
  CellUpdate3D update;
  update.channels = liquid ? 1 : 2;  // phi; density and temperature
  if (!liquid) {
    update.damping = float(1.0 / (1.0 + p.dissipation * p.dt));
    // Clear of the floor: a source touching it feeds the axis from the stagnation point
    // below (the 2D smoke's lesson, shaders/fluid/advect.glsl).
    const double r = std::max(1.5, 0.1 * std::min(nx, ny));
    update.source = true;
    update.sourceSphere = {float(0.5 * nx), float(0.5 * ny), float(r + 2.0), float(r)};
    update.sourceValue = {1.0f, 1.0f, 0.0f, 0.0f};
    update.sourceRate = float(std::min(1.0, kSourceRate * p.dt));
    update.solids = &solids;
  }
  GridField3D next = GridField3D::temporary(grid.cells(), "fluid3d.scalars.next");
  advectCells3D(grid, scalars, velocity, float(p.dt / h), p.advection, update, next);
  std::swap(scalars, next);
}

void FluidSolver3D::Impl::measureVolume() {
  GridField3D fraction = GridField3D::temporary(grid.packed(), "fluid3d.fraction");
  GridField3D inBand = GridField3D::temporary(grid.packed(), "fluid3d.band");
  measureVolume3D(grid, scalars, solids, fraction, inBand);
  stream::sum(fraction, volume);
  stream::sum(inBand, band);
}

void FluidSolver3D::Impl::redistance(const FluidParameters3D& p) {
  // The shift comes from the volume measured on the last step's redistanced phi: measured on
  // a signed distance, the cells' fractions give the volume whatever the advection did to
  // phi's slope, and the step's own loss is corrected by the next.
  const VolumeCorrection3D correction{&volume, &band, float(targetVolume)};
  for (int sweep = 0; sweep < kRedistanceSweeps; ++sweep) {
    GridField3D next = GridField3D::temporary(grid.cells(), "fluid3d.scalars.next");
    redistance3D(grid, scalars, sweep == 0 && p.volumeCorrection ? &correction : nullptr, next);
    std::swap(scalars, next);
  }
  if (p.volumeCorrection || p.statistics) measureVolume();
}

void FluidSolver3D::Impl::project(const FluidParameters3D& p) {
  const bool statistics = p.statistics;
  GridField3D equations;
  if (statistics) equations = GridField3D::temporary(grid.packed(), "fluid3d.equations");
  divergence3D(grid, velocity, A->diagonalField(), rhs, statistics ? &equations : nullptr);
  double toRms = 0;
  if (statistics) {
    stream::sum(equations, scratch);
    const double count = double(scratch.read());
    toRms = count > 0 ? 1.0 / (h * std::sqrt(count)) : 0.0;
    stream::norm2(rhs, scratch);
    stats.divergenceBefore = double(scratch.read()) * toRms;
  }

  solvers::IterativeOptions o = p.pressure;
  if (o.tolerance > 0) {
    // Warm-started from the last step's pressure, a projection needs about as many
    // iterations as the last one: the checks before those are read-backs that only stall.
    o.firstCheck = std::max(1, lastIterations - 1);
    // Down to 1e-5 the float recurrence residual stays well within the tolerance of b - A x
    // (at 1e-4 the true residual measured 1.5e-5 to 9e-5 from 64^3 to 512^3), so the
    // product and read-back that would confirm it are left out; the statistics' divergence
    // after the projection reports the result itself.
    o.checkTrueResidual = o.tolerance < 1e-5f;
  } else {
    // Fixed work: one check at the end when the statistics want the residual, else none
    // (nothing read back).
    o.tolerance = 0;
    o.fixedIterations = true;
    o.maxIterations = p.iterations;
    o.checkEvery = statistics ? p.iterations : p.iterations + 1;
  }
  const solvers::SolverStatus s = solver->solve(rhs, q, o);
  stats.residual = s.relativeResidual;
  stats.iterations = s.iterations;
  // Converged at its first check, the solve may have needed fewer: the next one looks from
  // half as far (after a looser tolerance, the first check falls back within a few steps).
  lastIterations = o.firstCheck && s.iterations <= *o.firstCheck ? s.iterations / 2 : s.iterations;
  stats.solverMessage = s.message;
  if (s.outcome == solvers::Outcome::NonFinite) stats.finite = false;

  std::array<int, 6> outside{};
  for (std::size_t side = 0; side < 6; ++side) outside[side] = int(A->shape().outside[side]);
  GridField3D next = GridField3D::temporary(grid.faces(), "fluid3d.velocity.next");
  subtractGradient3D(grid, velocity, q, A->diagonalField(), outside, liquid ? &levelSet : nullptr, liquid, next);
  std::swap(velocity, next);

  if (statistics) {
    GridField3D after = GridField3D::temporary(grid.packed(), "fluid3d.divergence.after");
    divergence3D(grid, velocity, A->diagonalField(), after);
    stream::norm2(after, scratch);
    stats.divergenceAfter = double(scratch.read()) * toRms;
  }
}

void FluidSolver3D::Impl::extrapolateVelocity() {
  for (int layer = 0; layer < kExtrapolationLayers; ++layer) {
    GridField3D next = GridField3D::temporary(grid.faces(), "fluid3d.velocity.next");
    extrapolateVelocity3D(grid, velocity, layer + 1 == kExtrapolationLayers, next);
    std::swap(velocity, next);
  }
}

void FluidSolver3D::step() {
  Impl& I = *m_impl;
  gl::StateGuard guard;
  I.stats = {};
  const double end = I.time + m_params.dt;
  I.updateSolids(m_params, end);
  // The cells' field moves with the last step's projected velocity (the velocity advected
  // next, with forces, is not divergence-free until this step's projection).
  I.advectScalars(m_params);
  if (I.liquid) I.redistance(m_params);
  I.advectVelocity(m_params);
  if (I.liquid || hasMovingSphere()) I.updatePressure(m_params);
  I.project(m_params);
  if (I.liquid) I.extrapolateVelocity();
  if (m_params.statistics) {
    stream::norm2(I.velocity, I.scratch);
    const double norm = double(I.scratch.read());
    I.stats.finite = I.stats.finite && std::isfinite(norm);
    stream::maxAbs(I.velocity, I.scratch);
    I.stats.maxSpeed = double(I.scratch.read());
    if (I.liquid) {
      const double volume = double(I.volume.read());
      I.stats.liquidVolume = volume * I.h * I.h * I.h;
      I.stats.finite = I.stats.finite && std::isfinite(volume);
    }
  }
  I.time = end;
  ++I.steps;
}

PressureSystem3D FluidSolver3D::pressureSystem() const {
  const Impl& I = *m_impl;
  if (I.steps == 0 || !I.A) throw std::logic_error("FluidSolver3D::pressureSystem: no projection yet (step first)");
  gl::StateGuard guard;
  PressureSystem3D system;
  std::vector<std::int64_t> unknownOfCell;
  system.A = I.A->toCsr(&unknownOfCell);
  const std::vector<float> b = I.rhs.downloadCells(), x = I.q.downloadCells();
  system.b.assign(std::size_t(system.A.rows), 0.0);
  system.x.assign(std::size_t(system.A.rows), 0.0);
  for (std::size_t cell = 0; cell < unknownOfCell.size(); ++cell) {
    if (unknownOfCell[cell] < 0) continue;
    system.b[std::size_t(unknownOfCell[cell])] = double(b[cell]);
    system.x[std::size_t(unknownOfCell[cell])] = double(x[cell]);
  }
  return system;
}

}  // namespace texstream::fluid
