#pragma once
// texstream::fluid::FluidSolver: Stam's stable fluids (1999) on the GPU as Bolz et al.
// 2003, §4.1 set them out: velocity and pressure colocated on an nx x ny grid of nodes,
// the pressure projection solved by the layered multigrid of §4.2 (solvers/multigrid/Multigrid.h).
//
// The velocity lives layered (two LayeredGrid fields u, v with one-texel borders). A step:
//  1. un-layer (u, v) into a node texture, advect it semi-Lagrangian (trace back, bilinear
//     interpolation, clamped to the domain; or MacCormack with Selle et al.'s 2008 limiter),
//     add body forces (buoyancy, mouse splats, vorticity confinement, Fedkiw et al. 2001),
//     damp, and re-layer it with the boundary velocities imposed (§4.3: "un-layers the
//     velocity field, performs the computations for advection, and then layers the
//     velocity variables again");
//  2. viscosity (nu > 0): (I - nu dt Δ) u = u*, a Helmholtz multigrid solve per component
//     with Dirichlet (no-slip, lid, inflow) values at solid nodes;
//  3. projection: the flux divergence of the face velocities (averages of the nodes, the
//     solid nodes' prescribed velocity on faces to solids) is the right-hand side of the
//     Neumann Poisson problem A phi = -D (outlets Dirichlet), solved by multigrid (or CG, or
//     Jacobi, for comparison: one IterativeSolver call either way); face fluxes are corrected by the exact gradient of phi (the
//     5-point Laplacian is their divergence of gradient, so the face divergence falls to the
//     solver's residual) and node velocities by the average of their faces' corrections
//     (an approximate projection, as colocated grids allow; Almgren et al. 1996);
//  4. dye (at a higher resolution than the velocity) and display particles (Bolz fig. 5)
//     are advected through the new velocity.
// Units: see Scene.h. Pressure p = phi h / dt.
//
// The advected fields (node velocity, dye, vorticity) are RGBA32F, or RGBA16F with
// FluidParameters::fieldFormat. On a context that renders half floats only (iOS Safari:
// EXT_color_buffer_half_float without EXT_color_buffer_float, Capabilities.h) RGBA16F is
// the only choice, and the step runs in the half-float mode (halfFloatMode(),
// halfFloatLimits() says why): advection and forces on the node velocity, then the same
// projection on node textures in RGBA16F with FluidParameters::halfFloatSweeps weighted
// Jacobi sweeps (NodeProjection.h), warm-started from the last step's pressure, as
// WebGL-Fluid-Simulation projects on such devices. The viscosity solve, the display
// particles and the statistics need RGBA32F targets and are off there.
#include <texstream/fluid/Scene.h>
#include <texstream/gl/Texture.h>
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/multigrid/LayeredStencil.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/stream/EnumNames.h>
#include <texstream/stream/GridField.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace texstream::fluid {

enum class Advection { SemiLagrangian, MacCormack };
enum class PressureSolver { Multigrid, ConjugateGradient, Jacobi };
/// Names for command lines, panels and reports.
std::span<const stream::EnumName<Advection>> advectionNames();
std::span<const stream::EnumName<PressureSolver>> pressureSolverNames();
const char* advectionName(Advection a);
const char* pressureSolverName(PressureSolver p);
/// "mg" | "cg" | "jacobi"; throws std::invalid_argument naming the value.
PressureSolver parsePressureSolver(std::string_view text);

struct FluidParameters {
  Scene scene = Scene::Smoke;
  int nx = 0, ny = 0;               ///< 0: the scene's default
  double dt = 0;                    ///< 0: the scene's default
  double viscosity = -1;            ///< nu; < 0: the scene's default (cavity: 1 / reynolds)
  double reynolds = 100;            ///< cavity: nu = 1 / Re (lid speed 1, side 1)
  double vorticity = -1;            ///< confinement epsilon; < 0: the scene's default
  double velocityDissipation = -1;  ///< per unit time; < 0: the scene's default
  double dyeDissipation = -1;
  double buoyancy = -1;
  Advection advection = Advection::SemiLagrangian;
  int dyeScale = 2;                 ///< dye grid: dyeScale (n - 1) + 1 nodes per side
  int particles = 16384;            ///< display particles (0: none)

  PressureSolver solver = PressureSolver::Multigrid;
  /// Multigrid cycles per step (Bolz: two V-cycles of four pre- and two post-smoothing
  /// steps); CG or Jacobi iterations per step for the other solvers.
  int cycles = 2;
  int iterations = 50;
  /// The pressure solve's options (solvers::IterativeOptions): tolerance > 0 iterates until
  /// the relative residual reaches it, at most maxIterations (always set: 200 by default);
  /// tolerance 0 runs the fixed count above instead. Each step sets fixedIterations and
  /// checkEvery; the other fields apply as given.
  solvers::IterativeOptions pressure = defaultPressure();
  /// The pressure and viscosity hierarchies; omega is also the Jacobi solver's weight.
  solvers::MultigridOptions multigrid{.preSmoothing = 4, .postSmoothing = 2};

  /// Read residuals and divergence norms back every step (blocking): the statistics below.
  bool statistics = true;
  /// Storage of the advected fields: RGBA32F or RGBA16F (defaultFieldFormat() picks).
  gl::TextureFormat fieldFormat = gl::TextureFormat::RGBA32F;
  /// The half-float mode's projection: weighted Jacobi sweeps per step (multigrid.omega
  /// their weight, as the Jacobi solver's), >= 1.
  int halfFloatSweeps = 40;

  /// pressure's default above: tolerance 0 (the fixed count), at most 200 iterations.
  static solvers::IterativeOptions defaultPressure();
};

/// RGBA32F where the current context renders into it, else RGBA16F (a half-float-only
/// context; Capabilities::halfFloatRenderTargets).
gl::TextureFormat defaultFieldFormat();

/// What one step measured (statistics on).
struct StepStats {
  double divergenceBefore = 0;       ///< RMS face-flux divergence of the velocity to project (1 / time)
  double divergenceAfter = 0;        ///< the same after projection (the constraint enforced)
  double divergenceAfterNodes = 0;   ///< RMS central divergence of the projected node velocities
  std::vector<double> residuals;     ///< pressure solver: relative residual after each cycle/check
  int iterations = 0;                ///< cycles (multigrid) or iterations (CG, Jacobi)
  bool finite = true;                ///< no NaN/Inf in the velocity
  double maxSpeed = 0;
};

/// A mouse action for the next step (node coordinates: x in [0, nx - 1], y in [0, ny - 1]).
struct Splat {
  float x = 0, y = 0;
  float forceX = 0, forceY = 0;  ///< velocity added at the centre (domain units / time)
  float radius = 8;              ///< in nodes
  float r = 1, g = 1, b = 1;     ///< dye added at the centre
};

/// Node fields for display (field textures hold the value in .x, velocity in .xy).
enum class Field { Dye, Velocity, Pressure, Divergence, Vorticity, Type };
std::span<const stream::EnumName<Field>> fieldNames();
const char* fieldName(Field f);

class FluidSolver {
 public:
  /// Builds the scene, the operators and both multigrid hierarchies (context current).
  /// Throws std::invalid_argument on bad parameters.
  explicit FluidSolver(const FluidParameters& params);
  ~FluidSolver();
  FluidSolver(FluidSolver&&) noexcept;
  FluidSolver& operator=(FluidSolver&&) noexcept;

  void step();
  /// Back to the scene's initial state (obstacles painted since are kept unless `geometry`).
  void reset(bool geometry = true);
  /// Knobs that need no rebuild: solver, cycles/iterations, tolerance, smoothing, omega,
  /// coarse iterations, dissipation, vorticity, buoyancy, advection, statistics. A change
  /// of dt or viscosity rebuilds the viscosity operator; of grid size or scene: use a new
  /// solver.
  void setParameters(const FluidParameters& params);
  const FluidParameters& parameters() const { return m_params; }

  /// Sets the velocity of every node (nx ny values each, i fastest, domain units per time);
  /// solid and outlet nodes then take their boundary values. Throws std::invalid_argument
  /// on a size mismatch.
  void setVelocity(const std::vector<float>& u, const std::vector<float>& v);
  void addSplat(const Splat& s);
  /// Paints (solid = true) or erases solid nodes in a disc; the pressure and viscosity
  /// operators are rebuilt before the next step.
  void paintObstacle(float x, float y, float radius, bool solid);

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  double h() const { return m_h; }
  double dt() const { return m_dt; }
  double time() const { return m_time; }
  long long steps() const { return m_steps; }
  const StepStats& lastStats() const { return m_stats; }
  /// The pressure solve's multigrid; throws std::logic_error in the half-float mode.
  const solvers::Multigrid& pressureMultigrid() const;
  /// True on a context without RGBA32F render targets: the step advects, adds forces and
  /// projects with Jacobi sweeps in RGBA16F, without viscosity, particles or statistics.
  bool halfFloatMode() const { return m_halfFloat; }
  /// "" unless halfFloatMode(), else what this context lacks and what is off for it.
  const std::string& halfFloatLimits() const { return m_halfFloatLimits; }

  /// The dye grid (dyeWidth() x dyeHeight() nodes, rgb).
  const stream::GridField& dye() const { return m_dye; }
  int dyeWidth() const { return m_dye.nx(); }
  int dyeHeight() const { return m_dye.ny(); }
  /// nx x ny nodes: .x node type (fluid/Scene.h), .yz prescribed velocity.
  const stream::GridField& boundary() const { return m_boundary; }
  /// Writes `f` into `out` (nx x ny nodes, or the dye grid for Field::Dye; `out` is
  /// reallocated when its size or format (the field format) differs): .x the scalar
  /// (pressure p, flux divergence, vorticity, node type), .xy the velocity, .rgb the dye.
  void fieldImage(Field f, stream::GridField& out);
  /// Particle positions in node coordinates (.xy), in a square texture of particle slots.
  const gl::Texture& particles() const { return m_particles.texture(); }
  int particleTextureWidth() const { return m_particleCount > 0 ? m_particles.nx() : 0; }
  int particleCount() const { return m_particleCount; }

  struct NodeSample {
    int i, j;
    double x, y, u, v, p;
  };
  /// Every node's position (domain units), velocity and pressure (blocking read-back).
  std::vector<NodeSample> sampleNodes();
  /// Writes sampleNodes() as CSV with the header i,j,x,y,u,v,p; throws std::runtime_error
  /// naming the path on failure.
  void writeCsv(const std::string& path);

 private:
  void buildGeometry();
  void rebuildOperators();
  void advectVelocity();
  void applyViscosity();
  void project();
  /// The half-float mode's projection of m_velocity (NodeProjection.h).
  void projectNodes();
  void advectDye();
  void advectParticles();
  /// The solver of m_params.solver for the pressure operator as it is now.
  void buildPressureSolver();
  void solvePressure();
  /// m_u, m_v = m_velocity layered, with the boundary velocities imposed.
  void relayerVelocity();
  /// Half-float mode: the boundary velocities imposed on m_velocity (no layered copy).
  void imposeNodeBoundary();

  FluidParameters m_params;
  int m_nx = 0, m_ny = 0, m_particleCount = 0;
  bool m_halfFloat = false;
  std::string m_halfFloatLimits;
  double m_h = 0, m_dt = 0, m_nu = 0, m_time = 0;
  long long m_steps = 0;
  SceneGeometry m_scene;
  bool m_operatorsDirty = true;
  bool m_velocityCurrent = false;  ///< m_velocity holds the un-layered (u, v) already
  StepStats m_stats;
  std::vector<Splat> m_splats;

  solvers::LayeredGrid m_grid;
  stream::GridField m_boundary;        ///< .x type, .yz prescribed velocity
  stream::Vector m_u, m_v;             ///< layered velocity (border in sync)
  stream::GridField m_velocity;        ///< (u, v) after un-layering / advection
  stream::GridField m_curl;            ///< vorticity
  stream::GridField m_dye;             ///< dye grid, rgb
  stream::GridField m_particles;       ///< particle slots, side x side
  stream::GridField m_nodePressure;    ///< half-float mode: phi (.x) at the nodes, the warm start
  std::unique_ptr<solvers::Multigrid> m_pressure, m_viscous;
  /// CG's Jacobi preconditioner; m_params.solver on the pressure multigrid's layered fields
  /// (rhs(), solution()).
  std::unique_ptr<solvers::JacobiPreconditioner> m_pressureJacobi;
  std::unique_ptr<solvers::IterativeSolver> m_pressureSolver;
  stream::Scalar m_scalar;
};

}  // namespace texstream::fluid
