// texstream-param: LSCM parameterization of a triangle mesh on the GPU (Lévy, Petitjean,
// Ray & Maillot 2002), built row by row with linalg::SystemBuilder and solved as the
// Concurrent Number Cruncher does (Buatois et al. 2008): the normal equations in BCRS 2x2
// with Jacobi-PCG, or CGLS. Windowed by default; --headless (or no DISPLAY) solves once
// and writes --out (OBJ with vt), --json and --screenshot.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure (a mesh LSCM cannot map: closed,
// several pieces, ...: the message says what to do); 2 a bad command line.
#include "DemoMain.h"
#include "ObjOutOption.h"
#include "ParamDemo.h"
#include "ParamSettings.h"
#include "SystemExportOptions.h"

int main(int argc, char** argv) {
  using namespace texstream;
  app::ObjOutOption out;
  app::SystemExportOptions exportOptions;
  return app::demoMain<app::ParamDemo>(argc, argv, [&](app::ParamSettings& settings) -> app::DemoProgram {
    return {.info = {"param", "texstream-param: least squares conformal maps", 1280, 720, app::kParamBindings},
            .description = "texstream-param: least squares conformal maps (Levy et al. 2002) on the GPU, solved as "
                           "the CNC does (Buatois et al. 2008)",
            .meshSetsSizes = true,
            .defaults = {.defaultSteps = 1},
            .addOptions =
                [&](CLI::App& cli) {
                  out.addTo(cli, "Write the mesh with its (u, v) as OBJ (vt lines) after the run");
                  exportOptions.addTo(cli,
                                      "Write the LSCM normal equations A^T A x = A^T b into DIR before solving (for "
                                      "other solvers; see apps/solve/petsc_solve.py)");
                },
            .validate =
                [&] {
                  app::checkParamSettings(settings);
                  if (out.check()) {
                    settings.resultMesh = std::make_shared<geometry::Mesh>();
                    settings.resultUv = std::make_shared<std::vector<double>>();
                  }
                  exportOptions.check();
                  settings.exportPetsc = exportOptions.petsc();
                  settings.exportDirectory = exportOptions.directory();
                },
            .afterRun =
                [&] {
                  if (settings.resultMesh)
                    out.write("texstream-param", "map", *settings.resultMesh, settings.resultUv.get());
                }};
  });
}
