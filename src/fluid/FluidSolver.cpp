// Stam 1999, "Stable Fluids", as Bolz et al. 2003, §4.1 and §4.3 set it out on the GPU:
// colocated velocity and pressure, advection on un-layered fields, the pressure Poisson
// problem (Neumann walls, Dirichlet outlets) solved by the layered multigrid of §4.2.
#include <texstream/fluid/FluidSolver.h>

#include <texstream/fluid/NodeProjection.h>

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/Jacobi.h>
#include <texstream/solvers/multigrid/LayeredSolver.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <random>
#include <stdexcept>

namespace texstream::fluid {

namespace {

using stream::GridField;
using stream::Pass;
using stream::Vector;

/// The splats (at most 8) as the kernels' uniform arrays, 4 floats a splat
/// (fluid/forces.glsl, fluid/advect.glsl): position (x, y, radius), force (x, y), colour (rgb).
struct SplatArrays {
  std::vector<float> position, force, colour;
};

SplatArrays splatArrays(const std::vector<Splat>& splats) {
  SplatArrays a{std::vector<float>(32, 0.0f), std::vector<float>(32, 0.0f), std::vector<float>(32, 0.0f)};
  for (std::size_t k = 0; k < splats.size(); ++k) {
    const Splat& s = splats[k];
    a.position[4 * k] = s.x;
    a.position[4 * k + 1] = s.y;
    a.position[4 * k + 2] = std::max(s.radius, 0.5f);
    a.force[4 * k] = s.forceX;
    a.force[4 * k + 1] = s.forceY;
    a.colour[4 * k] = s.r;
    a.colour[4 * k + 1] = s.g;
    a.colour[4 * k + 2] = s.b;
  }
  return a;
}

std::string lower(std::string_view text) {
  std::string t(text);
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return t;
}

}  // namespace

namespace {
constexpr stream::EnumName<Advection> kAdvectionNames[] = {
    {Advection::SemiLagrangian, "semi-lagrangian", "semi-Lagrangian"},
    {Advection::MacCormack, "maccormack", "MacCormack (limited)"}};
constexpr stream::EnumName<PressureSolver> kPressureSolverNames[] = {
    {PressureSolver::Multigrid, "mg", "multigrid"},
    {PressureSolver::ConjugateGradient, "cg", "CG (Jacobi-preconditioned)"},
    {PressureSolver::Jacobi, "jacobi", "Jacobi"}};
constexpr stream::EnumName<Field> kFieldNames[] = {
    {Field::Dye, "dye", "dye"},
    {Field::Velocity, "velocity", "velocity"},
    {Field::Pressure, "pressure", "pressure"},
    {Field::Divergence, "divergence", "divergence"},
    {Field::Vorticity, "vorticity", "vorticity"},
    {Field::Type, "type", "node type"}};
}  // namespace

std::span<const stream::EnumName<Advection>> advectionNames() { return kAdvectionNames; }
std::span<const stream::EnumName<PressureSolver>> pressureSolverNames() { return kPressureSolverNames; }
std::span<const stream::EnumName<Field>> fieldNames() { return kFieldNames; }

const char* advectionName(Advection a) { return stream::nameOf(advectionNames(), a); }
const char* pressureSolverName(PressureSolver p) { return stream::nameOf(pressureSolverNames(), p); }
const char* fieldName(Field f) { return stream::nameOf(fieldNames(), f); }

PressureSolver parsePressureSolver(std::string_view text) {
  if (lower(text) == "multigrid") return PressureSolver::Multigrid;
  if (auto p = stream::findByName(pressureSolverNames(), text)) return *p;
  throw std::invalid_argument("unknown pressure solver \"" + std::string(text) + "\" (solvers: " +
                              stream::nameList(pressureSolverNames()) + ")");
}

gl::TextureFormat defaultFieldFormat() {
  return gl::capabilities().floatRenderTargets ? gl::TextureFormat::RGBA32F : gl::TextureFormat::RGBA16F;
}

solvers::IterativeOptions FluidParameters::defaultPressure() {
  solvers::IterativeOptions o;
  o.tolerance = 0;
  o.maxIterations = 200;
  return o;
}

FluidSolver::FluidSolver(const FluidParameters& params) : m_params(params) {
  const SceneDefaults d = sceneDefaults(params.scene);
  m_nx = params.nx > 0 ? params.nx : d.nx;
  m_ny = params.ny > 0 ? params.ny : d.ny;
  m_dt = params.dt > 0 ? params.dt : d.dt;
  auto orDefault = [](double v, double fallback) { return v >= 0 ? v : fallback; };
  if (params.scene == Scene::Cavity && params.viscosity < 0) {
    if (!(params.reynolds > 0)) throw std::invalid_argument("FluidSolver: the Reynolds number must be > 0");
    m_nu = 1.0 / params.reynolds;
  } else {
    m_nu = orDefault(params.viscosity, d.viscosity);
  }
  m_params.nx = m_nx;
  m_params.ny = m_ny;
  m_params.dt = m_dt;
  m_params.viscosity = m_nu;
  m_params.vorticity = orDefault(params.vorticity, d.vorticity);
  m_params.velocityDissipation = orDefault(params.velocityDissipation, d.velocityDissipation);
  m_params.dyeDissipation = orDefault(params.dyeDissipation, d.dyeDissipation);
  m_params.buoyancy = orDefault(params.buoyancy, d.buoyancy);
  if (params.dyeScale < 1 || params.dyeScale > 4) throw std::invalid_argument("FluidSolver: dyeScale must be in [1, 4]");
  if (params.particles < 0) throw std::invalid_argument("FluidSolver: particles must be >= 0");
  if (params.cycles < 1 || params.iterations < 1 || !(params.pressure.maxIterations.value_or(0) >= 1))
    throw std::invalid_argument("FluidSolver: cycles, iterations and maxIterations must be >= 1");
  if (params.halfFloatSweeps < 1)
    throw std::invalid_argument(
        "FluidSolver: halfFloatSweeps (Jacobi sweeps of the half-float projection) must be >= 1, not " +
        std::to_string(params.halfFloatSweeps));
  if (!(params.pressure.tolerance >= 0)) throw std::invalid_argument("FluidSolver: tolerance must be >= 0");
  solvers::validate(params.multigrid);
  if (params.fieldFormat != gl::TextureFormat::RGBA32F && params.fieldFormat != gl::TextureFormat::RGBA16F)
    throw std::invalid_argument(std::string("FluidSolver: fieldFormat must be RGBA32F or RGBA16F, not ") +
                                gl::formatName(params.fieldFormat));
  const gl::Capabilities& caps = gl::capabilities();
  m_halfFloat = !caps.floatRenderTargets;
  if (m_halfFloat) {
    if (params.fieldFormat != gl::TextureFormat::RGBA16F)
      throw std::invalid_argument("FluidSolver: RGBA32F fields need RGBA32F render targets: " +
                                  caps.floatTargetsMissing() + "; ask for fieldFormat RGBA16F (the half-float mode)");
    m_halfFloatLimits = caps.floatTargetsMissing() + ". Velocity, dye and pressure are RGBA16F (" +
                        gl::Capabilities::kHalfFloatTargetsExtension +
                        "): the pressure projection is a fixed number of Jacobi sweeps in half floats a step (the "
                        "multigrid and CG solvers need 32-bit floats), without viscosity, particles or statistics";
    m_params.statistics = false;
  }
  m_h = gridSpacing(m_nx, m_ny);
  m_scene = buildScene(params.scene, m_nx, m_ny, m_dt);

  gl::StateGuard guard;
  const gl::TextureFormat fields = params.fieldFormat;
  m_scalar = stream::Scalar("fluid.scalar");
  m_grid = solvers::Multigrid::fineGrid(m_nx, m_ny, params.multigrid);
  // Node types and prescribed velocities are painted by passes: half floats where only
  // those render (types are small integers, exact in half floats).
  m_boundary = GridField(m_nx, m_ny, "fluid.boundary", m_halfFloat ? fields : gl::TextureFormat::RGBA32F);
  if (m_halfFloat) {
    m_nodePressure = GridField(m_nx, m_ny, "fluid.phi", fields);
  } else {
    m_u = Vector(m_grid.layout(), "fluid.u");
    m_v = Vector(m_grid.layout(), "fluid.v");
  }
  m_velocity = GridField(m_nx, m_ny, "fluid.velocity", fields);
  m_curl = GridField(m_nx, m_ny, "fluid.curl", fields);
  m_dye = GridField(params.dyeScale * (m_nx - 1) + 1, params.dyeScale * (m_ny - 1) + 1, "fluid.dye", fields);
  // Particle positions need 32-bit floats (a half float resolves a quarter node at 256).
  m_particleCount = m_halfFloat ? 0 : params.particles;
  if (m_particleCount > 0) {
    const int side = int(std::ceil(std::sqrt(double(m_particleCount))));
    m_particles = GridField(side, side, "fluid.particles");
  }
  reset(true);
  // The operators and multigrid hierarchies exist from here on, so that the pressure
  // multigrid, its solution and every field can be asked for before the first step.
  if (!m_halfFloat) rebuildOperators();
}

const solvers::Multigrid& FluidSolver::pressureMultigrid() const {
  if (!m_pressure) throw std::logic_error("FluidSolver::pressureMultigrid: no pressure solve here: " + m_halfFloatLimits);
  return *m_pressure;
}

FluidSolver::~FluidSolver() = default;
FluidSolver::FluidSolver(FluidSolver&&) noexcept = default;
FluidSolver& FluidSolver::operator=(FluidSolver&&) noexcept = default;

void FluidSolver::buildGeometry() {
  std::vector<float> type(m_scene.type.size());
  for (std::size_t k = 0; k < type.size(); ++k) type[k] = float(int(m_scene.type[k]));
  m_boundary.uploadChannels({type, m_scene.u, m_scene.v});
  m_operatorsDirty = !m_halfFloat;
}

void FluidSolver::relayerVelocity() {
  // The half-float mode has no layered velocity: its forces pass imposes the boundary
  // values on the node field.
  if (m_halfFloat) return;
  Pass pass("fluid/relayer_velocity");
  m_grid.bind(pass);
  pass.input("u_velocity", m_velocity).input("u_boundary", m_boundary).output(m_u).output(m_v);
  pass.label("fluid relayer").run();
}

void FluidSolver::reset(bool geometry) {
  gl::StateGuard guard;
  if (geometry) buildGeometry();
  m_time = 0;
  m_steps = 0;
  m_velocityCurrent = false;
  m_splats.clear();
  m_stats = {};
  // Velocity at rest except at the boundaries (relayered from a zero node field, or in the
  // half-float mode imposed on it).
  m_velocity.setZero();
  m_velocityCurrent = m_halfFloat;
  relayerVelocity();
  imposeNodeBoundary();
  // Dye: the cavity starts with four coloured quadrants to show the mixing; the others
  // start clear and get dye from their sources.
  const int dyeW = m_dye.nx(), dyeH = m_dye.ny();
  std::vector<float> red(m_dye.nodes(), 0.0f), green(m_dye.nodes(), 0.0f), blue(m_dye.nodes(), 0.0f);
  if (m_params.scene == Scene::Cavity) {
    for (int j = 0; j < dyeH; ++j)
      for (int i = 0; i < dyeW; ++i) {
        const std::size_t k = std::size_t(j) * dyeW + i;
        const bool right = 2 * i >= dyeW, top = 2 * j >= dyeH;
        red[k] = right ? 0.9f : 0.1f;
        green[k] = top ? 0.8f : 0.2f;
        blue[k] = right != top ? 0.9f : 0.2f;
      }
  }
  m_dye.uploadChannels({red, green, blue});
  if (m_particleCount > 0) {
    // Slot k: position (x, y), a negative age (staggered spawns), a phase.
    std::vector<float> x(m_particles.nodes(), 0.0f), y(x.size(), 0.0f), age(x.size(), 0.0f), phase(x.size(), 0.0f);
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> ux(1.0f, float(m_nx - 2)), uy(1.0f, float(m_ny - 2)), ages(0.0f, 300.0f);
    for (std::size_t k = 0; k < std::size_t(m_particleCount); ++k) {
      for (int tries = 0; tries < 32; ++tries) {
        x[k] = ux(rng);
        y[k] = uy(rng);
        if (m_scene.at(int(x[k] + 0.5f), int(y[k] + 0.5f)) == NodeType::Fluid) break;
      }
      age[k] = -ages(rng);
      phase[k] = float(k) * 0.618034f;
    }
    m_particles.uploadChannels({x, y, age, phase});
  }
  if (m_pressure) m_pressure->solution().setZero();
  if (!m_nodePressure.empty()) m_nodePressure.setZero();
}

void FluidSolver::setParameters(const FluidParameters& params) {
  if (params.scene != m_params.scene || (params.nx > 0 && params.nx != m_nx) || (params.ny > 0 && params.ny != m_ny))
    throw std::invalid_argument("FluidSolver::setParameters: scene and grid size need a new solver");
  if (params.cycles < 1 || params.iterations < 1 || !(params.pressure.maxIterations.value_or(0) >= 1) ||
      !(params.pressure.tolerance >= 0))
    throw std::invalid_argument("FluidSolver::setParameters: cycles, iterations, maxIterations >= 1, tolerance >= 0");
  if (params.halfFloatSweeps < 1)
    throw std::invalid_argument(
        "FluidSolver::setParameters: halfFloatSweeps (Jacobi sweeps of the half-float projection) must be >= 1, not " +
        std::to_string(params.halfFloatSweeps));
  solvers::validate(params.multigrid);
  if (params.multigrid.maxLevels != m_params.multigrid.maxLevels ||
      params.multigrid.coarsestNodes != m_params.multigrid.coarsestNodes)
    throw std::invalid_argument("FluidSolver::setParameters: the multigrid hierarchy (levels) needs a new solver");
  FluidParameters next = params;
  next.nx = m_nx;
  next.ny = m_ny;
  next.fieldFormat = m_params.fieldFormat;
  if (m_halfFloat) next.statistics = false;  // the reductions need RGBA32F targets
  next.dyeScale = m_params.dyeScale;
  next.particles = m_params.particles;
  const double dt = params.dt > 0 ? params.dt : m_dt;
  const double nu = params.viscosity >= 0 ? params.viscosity : m_nu;
  if (!(dt > 0) || !std::isfinite(dt)) throw std::invalid_argument("FluidSolver::setParameters: dt must be > 0");
  if ((dt != m_dt || nu != m_nu) && !m_halfFloat) m_operatorsDirty = true;
  m_dt = dt;
  m_nu = nu;
  next.dt = dt;
  next.viscosity = nu;
  m_params = next;
  if (m_pressure) {
    m_pressure->setOptions(m_params.multigrid);
    buildPressureSolver();
  }
  if (m_viscous) m_viscous->setOptions(m_params.multigrid);
}

void FluidSolver::setVelocity(const std::vector<float>& u, const std::vector<float>& v) {
  const std::size_t n = m_grid.nodes();
  if (u.size() != n || v.size() != n)
    throw std::invalid_argument("FluidSolver::setVelocity: " + std::to_string(u.size()) + " and " +
                                std::to_string(v.size()) + " values for " + std::to_string(n) + " nodes");
  gl::StateGuard guard;
  m_velocity.uploadChannels({u, v});
  m_velocityCurrent = m_halfFloat;
  relayerVelocity();
  imposeNodeBoundary();
}

void FluidSolver::imposeNodeBoundary() {
  if (!m_halfFloat) return;
  // The forces pass without forces: solid nodes take their prescribed velocity, outlets
  // their fluid neighbours' average, as the re-layering gives the layered velocity.
  GridField imposed = GridField::temporary(m_nx, m_ny, "fluid.velocity.imposed", m_velocity.format());
  Pass("fluid/forces")
      .define("IMPOSE_BOUNDARY")
      .input("u_velocity", m_velocity)
      .input("u_boundary", m_boundary)
      .input("u_curl", m_curl)
      .input("u_dye", m_dye)
      .uniform("u_buoyancy", 0.0f)
      .uniform("u_vorticity", 0.0f)
      .uniform("u_splatCount", 0)
      .output(imposed)
      .label("fluid boundary")
      .run();
  std::swap(m_velocity, imposed);
}

void FluidSolver::addSplat(const Splat& s) {
  if (m_splats.size() < 8) m_splats.push_back(s);
}

void FluidSolver::paintObstacle(float x, float y, float radius, bool solid) {
  gl::StateGuard guard;
  Pass("fluid/paint")
      .input("u_boundary", m_boundary)
      .uniform("u_disc", x, y, radius, 0.0f)
      .uniform("u_solid", solid ? 1 : 0)
      .output(m_boundary)
      .label("fluid paint")
      .run();
  m_operatorsDirty = !m_halfFloat;
  m_velocityCurrent = m_halfFloat;  // the next step re-imposes solid velocities from u, v
}

void FluidSolver::rebuildOperators() {
  auto build = [&](bool viscous, float sigma) {
    solvers::LayeredStencil op(m_grid, viscous ? "fluid.viscous" : "fluid.pressure");
    Pass pass("fluid/operator");
    m_grid.bind(pass);
    if (viscous) pass.define("VISCOUS").uniform("u_sigma", sigma);
    pass.input("u_boundary", m_boundary);
    for (int e : {1, 3, 4, 5, 7}) pass.output(op.entry(e));
    pass.label("fluid operator").run();
    return op;
  };
  bool outlet = false;
  for (NodeType t : m_scene.type) outlet = outlet || t == NodeType::Outlet;
  const bool singular = !outlet;  // closed box: pure Neumann, pressure up to a constant
  if (m_pressure) m_pressure->setOperator(build(false, 0.0f), singular);
  else m_pressure = std::make_unique<solvers::Multigrid>(build(false, 0.0f), singular, m_params.multigrid);
  buildPressureSolver();
  if (m_nu > 0) {
    const float sigma = float(m_h * m_h / (m_nu * m_dt));
    if (m_viscous) m_viscous->setOperator(build(true, sigma), false);
    else m_viscous = std::make_unique<solvers::Multigrid>(build(true, sigma), false, m_params.multigrid);
  } else {
    m_viscous.reset();
  }
  m_operatorsDirty = false;
}

void FluidSolver::step() {
  gl::StateGuard guard;
  if (m_operatorsDirty) rebuildOperators();
  m_stats = {};
  advectVelocity();
  if (m_halfFloat) {
    projectNodes();
  } else {
    applyViscosity();
    project();
  }
  advectDye();
  advectParticles();
  if (m_params.statistics) {
    stream::norm2(m_velocity, m_scalar);
    const double n2 = double(m_scalar.read());
    m_stats.finite = std::isfinite(n2);
    stream::maxAbs(m_velocity, m_scalar);
    m_stats.maxSpeed = double(m_scalar.read());
  }
  m_splats.clear();
  m_time += m_dt;
  ++m_steps;
}

void FluidSolver::advectVelocity() {
  // Un-layer (Bolz §4.3), advect, add forces, re-layer with the boundary velocities. The
  // last step's projection left the un-layered velocity in m_velocity already.
  if (!m_velocityCurrent) {
    Pass pass("fluid/unlayer_velocity");
    m_grid.bind(pass);
    pass.input("u_u", m_u).input("u_v", m_v).output(m_velocity).label("fluid unlayer").run();
  }
  const float cells = float(m_dt / m_h);
  const float damping = float(1.0 / (1.0 + m_params.velocityDissipation * m_dt));
  GridField advected = GridField::temporary(m_nx, m_ny, "fluid.advected", m_velocity.format());
  auto advect = [&](const Vector& q, const Vector& velocity, Vector& out, bool reverse, float damp) {
    Pass pass("fluid/advect");
    if (reverse) pass.define("REVERSE");
    pass.input("u_q", q).input("u_velocity", velocity).uniform("u_cells", cells).uniform("u_scale", 1.0f);
    pass.uniform("u_damping", damp).output(out).label(reverse ? "fluid advect back" : "fluid advect").run();
  };
  advect(m_velocity, m_velocity, advected, false, damping);
  if (m_params.advection == Advection::MacCormack) {
    GridField back = GridField::temporary(m_nx, m_ny, "fluid.back", m_velocity.format());
    GridField corrected = GridField::temporary(m_nx, m_ny, "fluid.corrected", m_velocity.format());
    advect(advected, m_velocity, back, true, 1.0f);
    Pass("fluid/maccormack")
        .input("u_q", m_velocity)
        .input("u_forward", advected)
        .input("u_backward", back)
        .input("u_velocity", m_velocity)
        .uniform("u_cells", cells)
        .uniform("u_scale", 1.0f)
        .uniform("u_damping", damping)
        .output(corrected)
        .label("fluid maccormack")
        .run();
    std::swap(advected, corrected);
  }
  // Without the re-layering below, the forces pass imposes the boundary velocities.
  const bool forces = m_params.buoyancy != 0 || m_params.vorticity != 0 || !m_splats.empty() || m_halfFloat;
  if (forces) {
    if (m_params.vorticity != 0) {
      Pass("fluid/curl")
          .input("u_velocity", advected)
          .input("u_boundary", m_boundary)
          .uniform("u_h", float(m_h))
          .output(m_curl)
          .label("fluid curl")
          .run();
    }
    const SplatArrays splats = splatArrays(m_splats);
    Pass pass("fluid/forces");
    pass.input("u_velocity", advected).input("u_boundary", m_boundary).input("u_curl", m_curl).input("u_dye", m_dye);
    pass.uniform("u_dt", float(m_dt)).uniform("u_h", float(m_h)).uniform("u_buoyancy", float(m_params.buoyancy));
    pass.uniform("u_vorticity", float(m_params.vorticity)).uniform("u_dyeScale", float(m_params.dyeScale));
    pass.uniform("u_splatCount", int(m_splats.size()));
    pass.uniformArray("u_splatPosition", splats.position).uniformArray("u_splatForce", splats.force);
    if (m_halfFloat) pass.define("IMPOSE_BOUNDARY");
    pass.output(m_velocity).label("fluid forces").run();
  } else {
    std::swap(m_velocity, advected);
  }
  relayerVelocity();
  m_velocityCurrent = m_halfFloat;
}

void FluidSolver::applyViscosity() {
  if (!m_viscous || m_nu <= 0) return;
  // (I - nu dt Δ) u = u*, per component, Dirichlet values at solids (Bolz §4.1, eq. 2).
  const float sigma = float(m_h * m_h / (m_nu * m_dt));
  for (Vector* q : {&m_u, &m_v}) {
    Pass pass("fluid/viscous_rhs");
    m_grid.bind(pass);
    pass.input("u_q", *q).input("u_centre", m_viscous->op().centre()).uniform("u_sigma", sigma);
    pass.output(m_viscous->rhs()).label("fluid viscous rhs").run();
    linalg::copy(*q, m_viscous->solution());
    // Warm-started from u*, one cycle: sigma = h^2 / (nu dt) makes A strongly diagonal
    // (sigma >= 1 in the demos), and the Helmholtz cycles converge faster than Poisson's.
    m_viscous->cycle();
    linalg::copy(m_viscous->solution(), *q);
  }
}

void FluidSolver::buildPressureSolver() {
  solvers::Multigrid& mg = *m_pressure;
  m_pressureSolver.reset();
  m_pressureJacobi.reset();
  // CG and Jacobi run on the multigrid's own operator in the plain layout (a LayeredStencil
  // is a LinearOperator), warm-started from the last pressure like the cycles.
  switch (m_params.solver) {
    case PressureSolver::Multigrid: m_pressureSolver = mg.layeredSolver(); break;
    case PressureSolver::ConjugateGradient:
      m_pressureJacobi = std::make_unique<solvers::JacobiPreconditioner>(mg.op(), stream::Layout::forSize(m_grid.nodes()));
      m_pressureSolver = std::make_unique<solvers::LayeredSolver>(
          m_grid, std::make_unique<solvers::ConjugateGradient>(mg.op(), m_pressureJacobi.get()));
      break;
    case PressureSolver::Jacobi:
      m_pressureSolver = std::make_unique<solvers::LayeredSolver>(
          m_grid, std::make_unique<solvers::WeightedJacobi>(mg.op(), m_params.multigrid.omega));
      break;
  }
}

void FluidSolver::solvePressure() {
  // A tolerance: solve to it. Else fixed work, checked (the statistics' residuals) after
  // every cycle or CG iteration and every 10 Jacobi sweeps, or not at all: then nothing is
  // read back.
  const bool toTolerance = m_params.pressure.tolerance > 0;
  const int count = toTolerance ? *m_params.pressure.maxIterations
                                : m_params.solver == PressureSolver::Multigrid ? m_params.cycles : m_params.iterations;
  const int checkEvery = m_params.solver == PressureSolver::Jacobi ? 10 : 1;
  solvers::IterativeOptions o = m_params.pressure;
  o.maxIterations = count;
  o.fixedIterations = !toTolerance;
  o.checkEvery = toTolerance || m_params.statistics ? checkEvery : count + 1;
  const solvers::SolverStatus s = m_pressureSolver->solve(m_pressure->rhs(), m_pressure->solution(), o);
  m_stats.iterations = s.iterations;
  for (std::size_t k = 0; k < s.checkedAt.size(); ++k)
    if (s.checkedAt[k] > 0) m_stats.residuals.push_back(s.residualHistory[k]);
}

void FluidSolver::project() {
  solvers::Multigrid& mg = *m_pressure;
  const solvers::LayeredStencil& A = mg.op();
  auto bindProjection = [&](Pass& pass) {
    m_grid.bind(pass);
    pass.input("u_u", m_u).input("u_v", m_v);
    for (int e : {1, 3, 4, 5, 7}) pass.input("u_A" + std::to_string(e), A.entry(e));
  };
  {
    Pass pass("fluid/divergence_rhs");
    bindProjection(pass);
    pass.output(mg.rhs()).label("fluid divergence").run();
  }
  // A closed box's flux divergence sums to zero by construction (interior faces cancel, walls
  // carry no net flux), so the right-hand side is consistent up to rounding, which the
  // coarsest level's pseudo-inverse absorbs: no mean removal (two passes and a reduction)
  // per step. The statistics report the solver's residual either way.
  const double fluid = std::max<double>(1.0, double(mg.freeNodes()));
  const double toRms = 1.0 / (m_h * std::sqrt(fluid));
  if (m_params.statistics) m_stats.divergenceBefore = mg.rhsNorm() * toRms;

  solvePressure();
  if (m_params.statistics) m_stats.divergenceAfter = mg.residualNorm() * toRms;

  // Borders as the pressure multigrid keeps them: in the kernel, or Bolz's copy pass.
  const bool inKernelBorders = mg.options().border == solvers::BorderUpdate::InKernel;
  Vector u = Vector::temporary(m_grid.layout(), "fluid.u.next");
  Vector v = Vector::temporary(m_grid.layout(), "fluid.v.next");
  // The compute backend writes the un-layered velocity in the same pass (an image store a
  // node from its owner's texel); a fragment pass writes its own texels only.
  const bool unlayerInPass = stream::Runtime::current().backend() == stream::Backend::Compute;
  {
    Pass pass(unlayerInPass ? "fluid/gradient_subtract_unlayer" : "fluid/gradient_subtract");
    bindProjection(pass);
    if (inKernelBorders) pass.define("BORDER_IN_KERNEL");
    pass.input("u_phi", mg.solution()).output(u).output(v);
    if (unlayerInPass)
      pass.output(m_velocity).workgroups((m_grid.width() + 15) / 16, (m_grid.height() + 15) / 16).label("fluid gradient+unlayer");
    else
      pass.label("fluid gradient");
    pass.run();
  }
  if (!inKernelBorders) m_grid.syncBorder({&u, &v});
  std::swap(m_u, u);
  std::swap(m_v, v);

  if (m_params.statistics) {
    Vector d = Vector::temporary(m_grid.layout(), "fluid.divergence");
    Pass pass("fluid/divergence_rhs");
    bindProjection(pass);
    pass.define("NODE_DIVERGENCE").output(d).label("fluid node divergence").run();
    stream::norm2(d, m_scalar);
    m_stats.divergenceAfterNodes = double(m_scalar.read()) * toRms;
  }
  if (!unlayerInPass) {
    Pass pass("fluid/unlayer_velocity");
    m_grid.bind(pass);
    pass.input("u_u", m_u).input("u_v", m_v).output(m_velocity).label("fluid unlayer").run();
  }
  m_velocityCurrent = true;
}

void FluidSolver::projectNodes() {
  // The layered path's discretisation on node textures (NodeProjection.h): b = -D, then
  // weighted Jacobi sweeps on A phi = b from the last step's phi, then the gradient.
  GridField rhs = GridField::temporary(m_nx, m_ny, "fluid.rhs", m_velocity.format());
  nodeDivergence(m_velocity, m_boundary, -1.0f, rhs);
  for (int k = 0; k < m_params.halfFloatSweeps; ++k)
    jacobiPressureSweep(m_nodePressure, rhs, m_boundary, m_params.multigrid.omega, m_nodePressure);
  GridField projected = GridField::temporary(m_nx, m_ny, "fluid.velocity.next", m_velocity.format());
  subtractNodeGradient(m_velocity, m_nodePressure, m_boundary, projected);
  std::swap(m_velocity, projected);
}

void FluidSolver::advectDye() {
  const float cells = float(m_dt / m_h), scale = float(m_params.dyeScale);
  const float damping = float(1.0 / (1.0 + m_params.dyeDissipation * m_dt));
  const SplatArrays splats = splatArrays(m_splats);
  // Sources: the smoke rises from a disc at the bottom; the channel and the obstacles get
  // dye in the inflow (a disc at the inlet's middle).
  float source[4] = {0, 0, 0, 0}, sourceColor[4] = {0, 0, 0, 0};
  if (m_params.scene == Scene::Smoke) {
    const float r = std::max(3.0f, float(m_nx) * 0.06f);
    // Clear of the wall: a disc tangent to the bottom rows fed the axis column from the
    // stagnation region there (no sideways mixing on the axis) and drew a line up the plume.
    source[0] = 0.5f * float(m_nx - 1), source[1] = r + 5.0f, source[2] = r, source[3] = 4.0f;
    sourceColor[0] = 1.0f, sourceColor[1] = 0.85f, sourceColor[2] = 0.6f;
  } else if (m_params.scene == Scene::Channel || m_params.scene == Scene::Obstacles) {
    const float phase = float(std::fmod(m_time * 2.0, 2.0));
    source[0] = 1.0f, source[1] = 0.5f * float(m_ny - 1), source[2] = std::max(2.0f, float(m_ny) * 0.08f);
    source[3] = 30.0f;
    sourceColor[0] = phase < 1.0f ? 1.0f : 0.2f, sourceColor[1] = 0.6f, sourceColor[2] = phase < 1.0f ? 0.2f : 1.0f;
  }
  auto inject = [&](Pass& pass) {
    pass.define("INJECT").uniform("u_splatCount", int(m_splats.size()));
    pass.uniformArray("u_splatPosition", splats.position).uniformArray("u_splatColor", splats.colour);
    pass.uniform("u_source", source[0], source[1], source[2], source[3]);
    pass.uniform("u_sourceColor", sourceColor[0], sourceColor[1], sourceColor[2], 0.0f).uniform("u_dt", float(m_dt));
  };
  GridField out = GridField::temporary(m_dye.nx(), m_dye.ny(), "fluid.dye.next", m_dye.format());
  {
    Pass pass("fluid/advect");
    pass.input("u_q", m_dye).input("u_velocity", m_velocity).uniform("u_cells", cells).uniform("u_scale", scale);
    pass.uniform("u_damping", damping);
    if (m_params.advection == Advection::SemiLagrangian) inject(pass);
    pass.output(out).label("fluid dye").run();
  }
  if (m_params.advection == Advection::MacCormack) {
    GridField back = GridField::temporary(m_dye.nx(), m_dye.ny(), "fluid.dye.back", m_dye.format());
    GridField corrected = GridField::temporary(m_dye.nx(), m_dye.ny(), "fluid.dye.corrected", m_dye.format());
    Pass pass("fluid/advect");
    pass.define("REVERSE").input("u_q", out).input("u_velocity", m_velocity).uniform("u_cells", cells);
    pass.uniform("u_scale", scale).uniform("u_damping", 1.0f).output(back).label("fluid dye back").run();
    Pass("fluid/maccormack")
        .input("u_q", m_dye)
        .input("u_forward", out)
        .input("u_backward", back)
        .input("u_velocity", m_velocity)
        .uniform("u_cells", cells)
        .uniform("u_scale", scale)
        .uniform("u_damping", damping)
        .output(corrected)
        .label("fluid dye maccormack")
        .run();
    // Sources on top, through the same kernel without motion.
    Pass add("fluid/advect");
    add.input("u_q", corrected).input("u_velocity", m_velocity).uniform("u_cells", 0.0f).uniform("u_scale", scale);
    add.uniform("u_damping", 1.0f);
    inject(add);
    add.output(out).label("fluid dye inject").run();
  }
  std::swap(m_dye, out);
}

void FluidSolver::advectParticles() {
  if (m_particleCount == 0) return;
  const bool inflow = m_params.scene == Scene::Channel || m_params.scene == Scene::Obstacles;
  Pass("fluid/particles")
      .input("u_particles", m_particles)
      .input("u_velocity", m_velocity)
      .input("u_boundary", m_boundary)
      .uniform("u_cells", float(m_dt / m_h))
      .uniform("u_maxAge", inflow ? 4000.0f : 400.0f)
      .uniform("u_spawnX", inflow ? 3.0f : 0.0f)
      .uniform("u_step", int(m_steps % 100000))
      .uniform("u_count", m_particleCount)
      .uniform("u_width", m_particles.layout().width())
      .output(m_particles)
      .label("fluid particles")
      .run();
}

void FluidSolver::fieldImage(Field f, GridField& out) {
  gl::StateGuard guard;
  if (m_operatorsDirty) rebuildOperators();
  const gl::TextureFormat format = m_params.fieldFormat;
  if (f == Field::Dye) {
    if (!out.hasSize(m_dye.nx(), m_dye.ny()) || out.format() != format)
      out = GridField(m_dye.nx(), m_dye.ny(), "fluid.image", format);
    linalg::copy(m_dye, out);
    return;
  }
  if (!out.hasSize(m_nx, m_ny) || out.format() != format) out = GridField(m_nx, m_ny, "fluid.image", format);
  if (m_halfFloat) {
    // The node fields themselves: no layered velocity to read.
    if (f == Field::Velocity) linalg::copy(m_velocity, out);
    if (f == Field::Type) linalg::copy(m_boundary, out);
    if (f == Field::Pressure) {
      linalg::copy(m_nodePressure, out);
      linalg::scale(float(m_h / m_dt), out);
    }
    if (f == Field::Divergence) nodeDivergence(m_velocity, m_boundary, float(1.0 / m_h), out);
    if (f == Field::Vorticity) {
      Pass("fluid/curl")
          .input("u_velocity", m_velocity)
          .input("u_boundary", m_boundary)
          .uniform("u_h", float(m_h))
          .output(out)
          .label("fluid image")
          .run();
    }
    return;
  }
  const solvers::LayeredStencil& A = m_pressure->op();
  Pass pass("fluid/field_image");
  m_grid.bind(pass);
  pass.define(f == Field::Velocity     ? "VELOCITY"
              : f == Field::Pressure   ? "PRESSURE"
              : f == Field::Divergence ? "DIVERGENCE"
              : f == Field::Vorticity  ? "VORTICITY"
                                       : "TYPE");
  pass.input("u_u", m_u).input("u_v", m_v).input("u_phi", m_pressure->solution()).input("u_boundary", m_boundary);
  for (int e : {1, 3, 4, 5, 7}) pass.input("u_A" + std::to_string(e), A.entry(e));
  pass.uniform("u_h", float(m_h)).uniform("u_pressureScale", float(m_h / m_dt));
  pass.output(out).label("fluid image").run();
}

std::vector<FluidSolver::NodeSample> FluidSolver::sampleNodes() {
  gl::StateGuard guard;
  std::vector<float> u, v;
  if (!m_halfFloat) {
    u = m_grid.unlayerHost(m_u.download());
    v = m_grid.unlayerHost(m_v.download());
  } else {
    const std::vector<float> velocity = m_velocity.download();
    for (std::size_t k = 0; k < m_grid.nodes(); ++k) {
      u.push_back(velocity[4 * k]);
      v.push_back(velocity[4 * k + 1]);
    }
  }
  std::vector<float> phi;
  if (m_halfFloat) {
    const std::vector<float> nodes = m_nodePressure.download();
    for (std::size_t k = 0; k < m_grid.nodes(); ++k) phi.push_back(nodes[4 * k]);
  } else {
    phi = m_grid.unlayerHost(m_pressure->solution().download());
  }
  std::vector<NodeSample> out;
  out.reserve(m_grid.nodes());
  for (int j = 0; j < m_ny; ++j)
    for (int i = 0; i < m_nx; ++i) {
      const std::size_t k = std::size_t(j) * m_nx + i;
      out.push_back({i, j, i * m_h, j * m_h, u[k], v[k], double(phi[k]) * m_h / m_dt});
    }
  return out;
}

void FluidSolver::writeCsv(const std::string& path) {
  const std::vector<NodeSample> nodes = sampleNodes();
  std::ofstream out(path);
  if (!out) throw std::runtime_error("FluidSolver::writeCsv(\"" + path + "\"): cannot open the file for writing");
  out << "i,j,x,y,u,v,p\n";
  out.precision(9);
  for (const NodeSample& s : nodes) out << s.i << ',' << s.j << ',' << s.x << ',' << s.y << ',' << s.u << ',' << s.v << ',' << s.p << '\n';
  if (!out) throw std::runtime_error("FluidSolver::writeCsv(\"" + path + "\"): write failed");
}

}  // namespace texstream::fluid
