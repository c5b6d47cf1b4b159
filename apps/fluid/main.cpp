// texstream-fluid: Stam's stable fluids with the pressure solved by the layered multigrid
// of Bolz et al. 2003, §4 (scenes smoke, channel (Bolz fig. 5), cavity, obstacles), on
// the fragment or compute backend. Windowed by default (mouse: left drag stirs, right
// drag paints obstacles; keys: space, R, S); --headless (or no DISPLAY) runs --steps and
// writes --screenshot / --json / --export-fields (--steps 0: the initial state).
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure or a blow-up (NaN, or speeds
// far beyond anything the scene injects); 2 a bad command line.
#include "AppOptions.h"
#include "DemoRunner.h"
#include "FluidDemo.h"
#include "OutputPath.h"

#include <texstream/fluid/FluidSolver.h>
#include <texstream/fluid/Scene.h>

int main(int argc, char** argv) {
  using namespace texstream;
  app::AppOptions defaults;
  defaults.size = {256, 256};
  defaults.defaultSteps = 100;
  app::CommandLine cmd("texstream-fluid",
                       "texstream-fluid: stable fluids on the GPU, pressure by the layered multigrid (Bolz et al. 2003, s4)",
                       defaults);
  std::string sceneText = "smoke", solverText = "mg", reText = "100", dtText, exportText, cyclesText = "2",
              preText = "4", postText = "2", omegaText = "0.8", coarseText = "direct", coarseItText = "20",
              tolText = "0", itText = "50", advectionText = "semi-lagrangian", viscosityText, vorticityText,
              displayText = "dye", borderText = "kernel";
  bool particles = false;
  CLI::App& cli = cmd.cli();
  cli.add_option("--scene", sceneText, "Scene: " + app::namedHelp(fluid::sceneNames()))
      ->type_name("NAME")
      ->capture_default_str();
  cli.add_option("--re", reText, "Reynolds number of the cavity (nu = 1 / Re), > 0")->type_name("RE")->capture_default_str();
  cli.add_option("--dt", dtText, "Time step (> 0; default: the scene's)")->type_name("DT");
  cli.add_option("--solver", solverText, "Pressure solver: " + app::namedHelp(fluid::pressureSolverNames()))
      ->type_name("mg|cg|jacobi")
      ->capture_default_str();
  cli.add_option("--export-fields", exportText, "Write the final fields as CSV (i,j,x,y,u,v,p)")->type_name("PATH.csv");
  cli.add_option("--cycles", cyclesText, "Multigrid cycles per step, >= 1")->type_name("N")->capture_default_str();
  cli.add_option("--pre", preText, "Pre-smoothing sweeps eta1, >= 0")->type_name("N")->capture_default_str();
  cli.add_option("--post", postText, "Post-smoothing sweeps eta2, >= 0")->type_name("N")->capture_default_str();
  cli.add_option("--omega", omegaText, "Jacobi weight, in (0, 2)")->type_name("W")->capture_default_str();
  cli.add_option("--coarse", coarseText, "Coarsest-level solve: " + app::namedHelp(solvers::coarseSolveNames()))
      ->type_name("KIND")
      ->capture_default_str();
  cli.add_option("--coarse-iterations", coarseItText, "Jacobi sweeps of --coarse jacobi, >= 1")
      ->type_name("N")
      ->capture_default_str();
  cli.add_option("--border", borderText,
                 "Layered borders kept in sync: " + app::namedHelp(solvers::borderUpdateNames()) +
                     " (the default: faster on the compute backend at every size measured)")
      ->type_name("copy|kernel")
      ->capture_default_str();
  cli.add_option("--tolerance", tolText, "Solve to this relative residual each step (0: fixed --cycles/--iterations)")
      ->type_name("TOL")
      ->capture_default_str();
  cli.add_option("--iterations", itText, "CG or Jacobi iterations per step, >= 1")->type_name("N")->capture_default_str();
  cli.add_option("--advection", advectionText, "Advection: " + app::namedHelp(fluid::advectionNames()))->type_name("KIND")->capture_default_str();
  cli.add_option("--viscosity", viscosityText, "Kinematic viscosity nu >= 0 (default: the scene's; cavity: 1 / Re)")
      ->type_name("NU");
  cli.add_option("--vorticity", vorticityText, "Vorticity confinement epsilon >= 0 (default: the scene's)")->type_name("EPS");
  cli.add_option("--display", displayText, "Displayed field: " + app::namedHelp(fluid::fieldNames()))
      ->type_name("FIELD")
      ->capture_default_str();
  cli.add_flag("--particles", particles, "Draw the display particles");

  cli.footer(app::kDemoExitStatus);

  app::FluidSettings settings;
  fluid::FluidParameters& p = settings.params;
  const auto exitCode = cmd.parse(argc, argv, [&] {
    p.scene = app::parseNamed("--scene", sceneText, fluid::sceneNames());
    p.reynolds = app::parseReal("--re", reText, 0.0, 1e9, false);
    if (!dtText.empty()) p.dt = app::parseReal("--dt", dtText, 0.0, 1e3, false);
    p.solver = app::parseNamed("--solver", solverText, fluid::pressureSolverNames());
    if (!exportText.empty()) {
      if (exportText.size() < 5 || exportText.substr(exportText.size() - 4) != ".csv")
        throw app::UsageError("--export-fields: invalid value \"" + exportText + "\": the file name must end in .csv");
      app::requireWritablePath("--export-fields", exportText);
      settings.exportFields = exportText;
    }
    p.cycles = int(app::parseInteger("--cycles", cyclesText, 1, 1000));
    p.multigrid.preSmoothing = int(app::parseInteger("--pre", preText, 0, 1000));
    p.multigrid.postSmoothing = int(app::parseInteger("--post", postText, 0, 1000));
    p.multigrid.omega = float(app::parseReal("--omega", omegaText, 0.0, 1.999, false));
    p.multigrid.coarseSolve = app::parseNamed("--coarse", coarseText, solvers::coarseSolveNames());
    p.multigrid.coarseIterations = int(app::parseInteger("--coarse-iterations", coarseItText, 1, 100000));
    p.multigrid.border = app::parseNamed("--border", borderText, solvers::borderUpdateNames());
    p.tolerance = float(app::parseReal("--tolerance", tolText, 0.0, 1.0, true));
    p.iterations = int(app::parseInteger("--iterations", itText, 1, 1000000));
    p.maxIterations = std::max(200, p.iterations);
    p.advection = app::parseNamed("--advection", advectionText, fluid::advectionNames());
    if (!viscosityText.empty()) p.viscosity = app::parseReal("--viscosity", viscosityText, 0.0, 1e3, true);
    if (!vorticityText.empty()) p.vorticity = app::parseReal("--vorticity", vorticityText, 0.0, 1e3, true);
    settings.display = app::parseNamed("--display", displayText, fluid::fieldNames());
    settings.particles = particles;
  });
  if (exitCode) return *exitCode;
  // --size overrides the scene's grid; without it the scene chooses (channel: 513x129).
  if (cli.count("--size") > 0) {
    p.nx = cmd.options().size.width;
    p.ny = cmd.options().size.height;
    if (p.nx < 8 || p.ny < 8) {
      std::cerr << "texstream-fluid: --size: invalid value \"" << p.nx << "x" << p.ny
                << "\": the fluid needs at least 8 nodes per side\n";
      return app::kUsageExitCode;
    }
  }

  // On a half-float-only context (iOS Safari) the fluid runs its advected fields in RGBA16F.
  app::AppInfo info{"fluid", "texstream-fluid: stable fluids on the layered multigrid", 1280, 800, true};
  return app::runDemo(info, cmd.options(), [&](const app::RunContext& ctx) {
    return std::make_unique<app::FluidDemo>(ctx, settings);
  });
}
