#include "FluidSettings.h"

#include <algorithm>
#include <cmath>

namespace texstream::app {

namespace {

constexpr stream::EnumName<DyeColors> kDyeColorNames[] = {
    {DyeColors::Splat, "splat", "splat colours"},
    {DyeColors::Single, "single", "one colour"},
    {DyeColors::Vorticity, "vorticity", "ramp by vorticity"},
    {DyeColors::Speed, "speed", "ramp by speed"}};

}  // namespace

std::span<const stream::EnumName<DyeColors>> dyeColorNames() { return kDyeColorNames; }

void describeFluidSettings(SettingTable& t, FluidSettings& s) {
  fluid::FluidParameters& p = s.params;
  solvers::MultigridOptions& mg = p.multigrid;
  // The scene.
  t.named("scene", p.scene, fluid::sceneNames(), "Scene");
  t.gridSize("size", p.nx, p.ny, 8, 8192, "Grid nodes N (N x N) or WxH (default: the scene's; channel 513x129)")
      .label("grid nodes")
      .unsetWhen([&p] { return p.nx <= 0 || p.ny <= 0; });
  t.real("re", p.reynolds, 0.0, 1e9, false, "Reynolds number of the cavity (nu = 1 / Re), > 0")
      .label("Reynolds number")
      .slider(1.0, 10000.0, true, "%.0f")
      .typeName("RE");
  t.real("dt", p.dt, 0.0, 1e3, false, "Time step, > 0 (default: the scene's)")
      .label("time step")
      .slider(1e-4, 0.1, true, "%.5f")
      .unsetWhen([&p] { return p.dt <= 0; })
      .typeName("DT");
  t.real("viscosity", p.viscosity, 0.0, 1e3, true, "Kinematic viscosity nu >= 0 (default: the scene's; cavity: 1 / Re)")
      .slider(0.0, 0.01, true, "%.6f")
      // The cavity's viscosity follows from Re unless set apart from it.
      .unsetWhen([&p] {
        return p.viscosity < 0 ||
               (p.scene == fluid::Scene::Cavity && p.reynolds > 0 && std::abs(p.viscosity * p.reynolds - 1.0) < 1e-9);
      })
      .typeName("NU");
  t.real("vorticity", p.vorticity, 0.0, 1e3, true, "Vorticity confinement epsilon >= 0 (default: the scene's)")
      .slider(0.0, 2.0)
      .unsetWhen([&p] { return p.vorticity < 0; })
      .typeName("EPS");
  t.real("velocity-dissipation", p.velocityDissipation, 0.0, 1e3, true,
         "Velocity lost per unit time, >= 0 (default: the scene's)")
      .label("velocity damping")
      .slider(0.0, 2.0)
      .unsetWhen([&p] { return p.velocityDissipation < 0; });
  t.real("dye-dissipation", p.dyeDissipation, 0.0, 1e3, true, "Dye lost per unit time, >= 0 (default: the scene's)")
      .label("dye fading")
      .slider(0.0, 2.0)
      .unsetWhen([&p] { return p.dyeDissipation < 0; });
  t.real("buoyancy", p.buoyancy, 0.0, 1e3, true, "Upward force per unit dye density, >= 0 (default: the scene's)")
      .slider(0.0, 5.0)
      .unsetWhen([&p] { return p.buoyancy < 0; });
  t.named("advection", p.advection, fluid::advectionNames(), "Advection");

  // The pressure solve.
  t.named("solver", p.solver, fluid::pressureSolverNames(), "Pressure solver");
  t.integer("cycles", p.cycles, 1, 1000, "Multigrid cycles per step, >= 1").label("cycles per step").slider(1, 10);
  t.named("cycle", mg.cycle, solvers::cycleTypeNames(), "Multigrid cycle");
  t.integer("pre", mg.preSmoothing, 0, 1000, "Pre-smoothing sweeps eta1, >= 0").label("eta1 (pre-smoothing)").slider(0, 8);
  t.integer("post", mg.postSmoothing, 0, 1000, "Post-smoothing sweeps eta2, >= 0").label("eta2 (post-smoothing)").slider(0, 8);
  t.real("omega", mg.omega, 0.0, 1.999, false,
         "Jacobi weight of the multigrid smoother, the Jacobi solver and the half-float sweeps, in (0, 2)")
      .slider(0.1, 1.2)
      .typeName("W");
  t.named("coarse", mg.coarseSolve, solvers::coarseSolveNames(),
          "Coarsest-level solve").label("coarse solve");
  t.integer("coarse-iterations", mg.coarseIterations, 1, 100000, "Jacobi sweeps of --coarse jacobi, >= 1")
      .label("coarse sweeps")
      .slider(1, 200);
  t.named("border", mg.border, solvers::borderUpdateNames(),
          "Layered borders kept in sync by copy passes (Bolz) or in the kernels (faster on the compute backend, "
          "docs/performance.md)")
      .label("border sync");
  stepTolerance(t, p.pressure.tolerance, "cycles or iterations");
  t.integer("iterations", p.iterations, 1, 1000000, "CG or Jacobi iterations per step, >= 1")
      .label("iterations per step")
      .slider(1, 500);
  t.integer("half-float-sweeps", p.halfFloatSweeps, 1, 100000,
            "Jacobi sweeps per step of the half-float mode's projection (contexts without RGBA32F render "
            "targets), >= 1")
      .label("Jacobi sweeps")
      .slider(1, 200);
  t.flag("statistics", p.statistics,
         "Read the residuals and divergence back every step (blocking): the JSON's arrays and the panel's plot")
      .label("statistics (blocking reads)");

  // What the view shows.
  t.named("display", s.display, fluid::fieldNames(), "Displayed field").label("field");
  t.named("dye-colors", s.dyeColors, dyeColorNames(), "Dye colours").label("dye colours");
  t.color("dye-color", s.dyeColor, "The dye's colour for --dye-colors single").label("dye colour");
  t.flag("shading", s.shading, "Light the dye by its gradient, so that its folds show in relief").label("shade the dye");
  t.flag("particles", s.particles, "Draw the display particles (Bolz fig. 5)");
  t.flag("arrows", s.arrows, "Draw velocity arrows over the field").label("velocity arrows");
  t.integer("arrow-spacing", s.arrowSpacing, 8, 200, "Pixels between velocity arrows").label("arrow spacing").slider(12, 80);

  // Stirring.
  t.integer("splats", s.splats, 0, 1000, "Random coloured splats at the start and at each reset (P adds more)")
      .label("random splats");
  t.real("brush-radius", s.brushRadius, 0.0, 1e4, false, "Mouse brush radius in nodes (default: a fortieth of the grid)")
      .label("brush radius")
      .slider(1.0, 40.0)
      .unsetWhen([&s] { return s.brushRadius <= 0; })
      .typeName("NODES");
  t.real("brush-force", s.brushForce, 0.0, 100.0, false, "Mouse force: the fluid moves this many times the drag")
      .label("brush force")
      .slider(0.1, 5.0);
}

void finishFluidSettings(FluidSettings& s) { s.params.pressure.maxIterations = std::max(200, s.params.iterations); }

}  // namespace texstream::app
