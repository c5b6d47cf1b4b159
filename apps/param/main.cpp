// texstream-param: LSCM parameterization of a triangle mesh on the GPU (Lévy, Petitjean,
// Ray & Maillot 2002), built row by row with linalg::SystemBuilder and solved as the
// Concurrent Number Cruncher does (Buatois et al. 2008): the normal equations in BCRS 2x2
// with Jacobi-PCG, or CGLS. Windowed by default; --headless (or no DISPLAY) solves once
// and writes --out (OBJ with vt), --json and --screenshot.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure (a mesh LSCM cannot map: closed,
// several pieces, ...: the message says what to do); 2 a bad command line.
#include "AppOptions.h"
#include "DemoCommandLine.h"
#include "DemoRunner.h"
#include "MainGuard.h"
#include "OutputPath.h"
#include "ParamDemo.h"
#include "ParamSettings.h"

#include <texstream/geometry/MeshIo.h>

#include <filesystem>
#include <iostream>

namespace {

int runMain(int argc, char** argv) {
  using namespace texstream;
  app::AppOptions defaults;
  defaults.defaultSteps = 1;
  app::DemoCommandLine cmd("texstream-param",
                       "texstream-param: least squares conformal maps (Levy et al. 2002) on the GPU, solved as the CNC "
                       "does (Buatois et al. 2008)\n(--size is not used: the mesh sets the sizes.)",
                       defaults);
  std::string outPath, exportDir, exportFormat = "mtx";
  CLI::App& cli = cmd.cli();
  cli.add_option("--out", outPath, "Write the mesh with its (u, v) as OBJ (vt lines) after the run")->type_name("PATH.obj");
  cli.add_option("--export-system", exportDir,
                 "Write the LSCM normal equations A^T A x = A^T b into DIR before solving (for other solvers; see "
                 "apps/solve/petsc_solve.py)")
      ->type_name("DIR");
  cli.add_option("--export-format", exportFormat, "Format of --export-system: Matrix Market (A.mtx, b.mtx) or PETSc binary "
                                                  "(system.petsc)")
      ->type_name("mtx|petsc")
      ->capture_default_str();

  app::ParamSettings settings;
  app::SettingTable table;
  app::describeParamSettings(table, settings);
  cmd.settings(table);
  cmd.footer(app::kParamBindings);

  const auto exitCode = cmd.parse(argc, argv, [&] {
    app::checkParamSettings(settings);
    app::requireWritablePath("--out", outPath);
    if (!outPath.empty()) {
      settings.resultMesh = std::make_shared<geometry::Mesh>();
      settings.resultUv = std::make_shared<std::vector<double>>();
    }
    settings.exportPetsc = app::parseChoice("--export-format", exportFormat, {"mtx", "petsc"}) == "petsc";
    if (!exportDir.empty() && std::filesystem::exists(exportDir) && !std::filesystem::is_directory(exportDir))
      throw app::UsageError("--export-system: invalid value \"" + exportDir + "\": exists and is not a directory");
    settings.exportDirectory = exportDir;
  });
  if (exitCode) return *exitCode;

  app::AppInfo info{"param", "texstream-param: least squares conformal maps", 1280, 720, app::kParamBindings};
  const int rc = app::runDemo(info, cmd.options(), [&](const app::RunContext& ctx) {
    return std::make_unique<app::ParamDemo>(ctx, settings);
  });
  if (rc != 0 || !settings.resultMesh) return rc;
  if (settings.resultUv->empty()) {
    std::cerr << "texstream-param: error: no map to write to " << outPath << "\n";
    return 1;
  }
  try {
    geometry::writeObj(outPath, *settings.resultMesh, *settings.resultUv);
    std::cerr << "texstream-param: wrote " << outPath << "\n";
  } catch (const std::exception& e) {
    std::cerr << "texstream-param: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return runMain(argc, argv);
  } catch (...) {
    return texstream::app::failedMain("texstream-param");
  }
}
