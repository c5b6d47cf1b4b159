#include "Fluid3DSettings.h"

namespace texstream::app {

void describeFluid3DSettings(SettingTable& t, Fluid3DSettings& s) {
  fluid::FluidParameters3D& p = s.params;
  // The scene.
  t.named("scene", p.scene, fluid::scene3DNames(), "Scene");
  t.gridSize3("size", p.nx, p.ny, p.nz, 4, 2048,
              "Grid cells N (N x N x N) or NXxNYxNZ, +z up (default: the scene's); beyond the GPU's texture limit "
              "it is refused")
      .label("grid cells")
      .unsetWhen([&p] { return p.nx <= 0 || p.ny <= 0 || p.nz <= 0; });
  t.real("dt", p.dt, 0.0, 1e3, false, "Time step, > 0 (default: the scene's)")
      .label("time step")
      .slider(1e-4, 0.1, true, "%.5f")
      .unsetWhen([&p] { return p.dt <= 0; })
      .typeName("DT");
  t.named("advection", p.advection, fluid::advectionNames(), "Advection");
  t.real("vorticity", p.vorticity, 0.0, 1e3, true, "Vorticity confinement epsilon >= 0 (default: the scene's)")
      .slider(0.0, 2.0)
      .unsetWhen([&p] { return p.vorticity < 0; })
      .typeName("EPS");
  t.real("buoyancy", p.buoyancy, 0.0, 1e3, true, "Smoke: upward force per unit temperature, >= 0 (default: the scene's)")
      .slider(0.0, 5.0)
      .unsetWhen([&p] { return p.buoyancy < 0; });
  t.real("density-weight", p.densityWeight, 0.0, 1e3, true,
         "Smoke: downward force per unit density, >= 0 (default: the scene's)")
      .label("density weight")
      .slider(0.0, 2.0)
      .unsetWhen([&p] { return p.densityWeight < 0; });
  t.real("dissipation", p.dissipation, 0.0, 1e3, true,
         "Smoke: density and temperature lost per unit time, >= 0 (default: the scene's)")
      .label("smoke fading")
      .slider(0.0, 2.0)
      .unsetWhen([&p] { return p.dissipation < 0; });
  t.real("gravity", p.gravity, 0.0, 1e3, true, "Liquid: gravity, >= 0").slider(0.0, 20.0);
  t.flag("volume-correction", p.volumeCorrection,
         "Liquid: shift the level set each step so that the liquid keeps its initial volume")
      .label("keep the volume");
  t.flag("open-top", p.openTop, "Smoke: the top side is open (air at p = 0), else a wall").label("open top");
  t.flag("moving-sphere", p.movingSphere, "Smoke-sphere: a sphere circling through the smoke").label("moving sphere");

  // The projection.
  t.named("precond", p.preconditioner, solvers::pressurePreconditionerNames(), "Preconditioner of the pressure CG")
      .label("preconditioner");
  stepTolerance(t, p.pressure.tolerance, "CG iterations");
  t.integer("iterations", p.iterations, 1, 100000, "CG iterations per step when --tolerance is 0, >= 1")
      .label("iterations per step")
      .slider(1, 100);
  t.integer("max-iterations", p.pressure.maxIterations, 1, 100000, "Cap on the CG iterations of a tolerance-driven solve, >= 1")
      .label("max iterations")
      .slider(1, 1000, true);
  t.flag("statistics", p.statistics,
         "Read the divergence, residual, speed and volume back every step (blocking): the JSON's arrays and the "
         "panel's plots")
      .label("statistics (blocking reads)");

  // What the view shows.
  t.flag("shadows", s.shadows, "Smoke: light attenuated by the smoke and the obstacles between it and the light");
  t.flag("fire", s.fire, "Smoke: temperature glows as fire").label("temperature as fire");
  t.real("opacity", s.opacity, 0.0, 100.0, false, "Smoke: the optical depth of a cell of density 1, > 0").slider(0.02, 5.0, true);
  t.real("ray-step", s.rayStep, 0.05, 4.0, true, "Ray-marching step in cells, in [0.05, 4]")
      .label("ray step (cells)")
      .slider(0.2, 2.0)
      .typeName("CELLS");
  t.color("smoke-color", s.smokeColor, "Smoke colour").label("smoke colour");
  t.color("liquid-color", s.liquidColor, "Liquid colour (what the liquid absorbs least)").label("liquid colour");
  t.flag("obstacles", s.obstacles, "Draw the solid obstacles and the moving sphere").label("draw obstacles");
  t.flag("box", s.box, "Draw the edges of the domain").label("draw the box");
}

}  // namespace texstream::app
