#pragma once
// texstream::fluid::FluidSolver3D: smoke and liquid in 3D on the GPU, the sibling of the 2D
// FluidSolver (Stam 1999; Fedkiw, Stam & Jensen 2001 for smoke; Enright, Marschner & Fedkiw
// 2002 and Batty, Wiebe & Houston 2003 for the liquid's second-order free surface), its
// pressure projected by solvers::PressureSolver3D (MGPCG by default) on a
// linalg::PressureMatrix3D rebuilt from the cells' labels each step.
//
// THIS HEADER IS THE INTERFACE CONTRACT between the simulation (src/fluid/FluidSolver3D.cpp,
// shaders/fluid3d/) and the demo (apps/fluid3d/): the demo relies on what is declared here;
// the simulation may add members, and changes what is here only together with the demo.
//
// Grid: nx x ny x nz cells of side h (the domain is nx h x ny h x nz h, +z up, h = 1 / the
// longest side), velocity on a MAC grid (u on x-faces, v on y-faces, w on z-faces).
// Fields a renderer reads (GridField3D, one cell a texel, stream/GridLayout3D.h):
//  - scalars(): smoke scenes .x density, .y temperature (above ambient); liquid scenes .x the
//    level set phi (signed distance in cells, < 0 in the liquid);
//  - solids(): .x 1 in solid cells (static obstacles and the moving sphere), 0 elsewhere;
//    .yzw the solid's velocity (domain units / time).
// The velocity (velocity()) is a field of (nx + 1) x (ny + 1) x (nz + 1) texels, one a texel:
// texel (i, j, k) holds u on the -x face of cell (i, j, k) in .x, v on its -y face in .y, w
// on its -z face in .z (shaders/fluid3d/mac.glsl); the pressure (pressure()) is the packed
// solution q of PressureMatrix3D's system, p = rho h q / dt.
// A liquid's level set loses volume to advection and redistancing; with
// FluidParameters3D::volumeCorrection each step shifts phi by one global constant (a Newton
// step on the volume, measured as the sum of the cells' fractions clamp(1/2 - phi, 0, 1)) so
// that the volume stays the initial one.
#include <texstream/fluid/FluidSolver.h>  // Advection, shared with the 2D solver
#include <texstream/linalg/Csr.h>
#include <texstream/solvers/systems/PressureSolver3D.h>
#include <texstream/stream/EnumNames.h>
#include <texstream/stream/GridField3D.h>

#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace texstream::fluid {

enum class Scene3D {
  Smoke,        ///< a buoyant hot smoke source at the bottom centre, open top
  SmokeSphere,  ///< the same rising around a static solid sphere, and a moving sphere
  DamBreak,     ///< a column of liquid released in a closed box
  Drop,         ///< a drop falling into a pool
  Pool,         ///< liquid at rest (the hydrostatic test)
};
std::span<const stream::EnumName<Scene3D>> scene3DNames();  ///< "smoke", "smoke-sphere", "dam-break", "drop", "pool"
const char* scene3DName(Scene3D s);
bool isLiquid(Scene3D s);

struct FluidParameters3D {
  Scene3D scene = Scene3D::Smoke;
  int nx = 0, ny = 0, nz = 0;        ///< 0: the scene's default size
  double dt = 0;                     ///< 0: the scene's default
  Advection advection = Advection::MacCormack;
  double vorticity = -1;             ///< confinement epsilon; < 0: the scene's default
  double buoyancy = -1;              ///< smoke: upward force per unit temperature; < 0: default
  double densityWeight = -1;         ///< smoke: downward force per unit density; < 0: default
  double dissipation = -1;           ///< smoke: density/temperature decay per unit time; < 0: default
  double gravity = 9.81;             ///< liquid scenes
  bool openTop = true;               ///< smoke: the top side is open (air, p = 0), else closed
  bool movingSphere = true;          ///< smoke-sphere: a sphere circling through the smoke
  /// The projection: PressureSolver3D's preconditioner and the CG options
  /// (solvers::IterativeOptions): pressure.tolerance > 0 iterates until the relative
  /// residual reaches it, at most pressure.maxIterations; tolerance 0 runs `iterations`
  /// instead. Each step sets the check schedule (firstCheck, checkEvery, fixedIterations);
  /// the other fields apply as given.
  solvers::PressurePreconditioner preconditioner = solvers::PressurePreconditioner::Multigrid;
  solvers::PressureMultigrid3DOptions multigrid;  ///< the multigrid preconditioner's options
  solvers::IterativeOptions pressure = defaultPressure();
  int iterations = 10;               ///< fixed CG iterations a step when pressure.tolerance = 0
  bool statistics = true;            ///< read the step's statistics back (blocking)
  bool volumeCorrection = true;      ///< liquid: the global volume correction of the level set

  /// pressure's default above: to 1e-4 (MGPCG's 4-5 iterations), at most 200 iterations.
  static solvers::IterativeOptions defaultPressure();
};

struct StepStats3D {
  double divergenceBefore = 0;   ///< RMS divergence over fluid cells before projection (1 / time)
  double divergenceAfter = 0;    ///< the same after (the 2D demo's divergence_after)
  double residual = 0;           ///< the pressure solve's final relative residual
  int iterations = 0;            ///< its CG iterations
  double maxSpeed = 0;           ///< largest face speed (domain units / time)
  double liquidVolume = 0;       ///< liquid scenes: volume inside phi < 0 (domain units^3)
  bool finite = true;            ///< no NaN/Inf in the velocity
  std::string solverMessage;     ///< the pressure solve's status message
};

/// A projection's linear system over its unknowns (the cells with an equation, rows in
/// x-fastest cell order), in double from the GPU's float fields: the matrix, the
/// right-hand side and the solution CG reached.
struct PressureSystem3D {
  linalg::Csr A;
  std::vector<double> b, x;
};

class FluidSolver3D {
 public:
  /// Builds the scene (context current). Throws std::invalid_argument on bad parameters and
  /// gl::Error when the grid does not fit the context's textures.
  explicit FluidSolver3D(const FluidParameters3D& params);
  /// "" where the current context runs `params.scene`, else why not, naming the scene: a
  /// context without RGBA32F render targets (half-float-only browsers, Capabilities.h) runs
  /// no 3D scene (the constructor throws gl::Error with this text there).
  static std::string unsupportedReason(const FluidParameters3D& params);
  ~FluidSolver3D();
  FluidSolver3D(FluidSolver3D&&) noexcept;
  FluidSolver3D& operator=(FluidSolver3D&&) noexcept;

  void step();
  /// Back to the scene's initial state.
  void reset();
  /// Knobs that need no rebuild (advection, vorticity, buoyancy, dissipation, gravity, the
  /// projection's settings, statistics); a new size or scene needs a new solver.
  void setParameters(const FluidParameters3D& params);
  const FluidParameters3D& parameters() const { return m_params; }

  int nx() const;
  int ny() const;
  int nz() const;
  double h() const;
  double dt() const;
  double time() const;
  long long steps() const;
  bool liquid() const { return isLiquid(m_params.scene); }
  const StepStats3D& lastStats() const;
  /// See the top of this header.
  const stream::GridField3D& scalars() const;
  const stream::GridField3D& solids() const;
  /// The MAC velocity and the pressure solution q (see the top of this header).
  const stream::GridField3D& velocity() const;
  const stream::GridField3D& pressure() const;
  /// Sets the face velocities (domain units / time): u, v, w each (nx + 1) (ny + 1) (nz + 1)
  /// values, x fastest, for velocity()'s texels (a component's values beyond its faces are
  /// ignored). Throws gl::Error on a wrong count.
  void setVelocity(std::span<const float> u, std::span<const float> v, std::span<const float> w);
  /// The last step's projection as it was solved, for other solvers (linalg::exportSystem
  /// writes it for PETSc: apps/solve/petsc_solve.py). Reads the fields back (blocking);
  /// std::logic_error before the first step.
  PressureSystem3D pressureSystem() const;
  /// The moving sphere's centre and radius (domain units), when the scene has one.
  bool hasMovingSphere() const;
  std::array<float, 4> movingSphere() const;

 private:
  struct Impl;
  FluidParameters3D m_params;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace texstream::fluid
