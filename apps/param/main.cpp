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

#include <texstream/geometry/MeshIo.h>
#include <texstream/geometry/ProceduralMeshes.h>

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
  std::string meshText = "builtin:patch", noiseText = "0", seedText = "1", pinsText, routeText = "normal",
              formatText = "auto", precondText = "auto", tolText = "1e-6", itText = "5000", refineText = "10", outPath,
              exportDir, exportFormat = "mtx";
  CLI::App& cli = cmd.cli();
  cli.add_option("--mesh", meshText,
                 "A mesh file (.obj, .off, .ply) with a boundary, or builtin:patch[:VERTICES] (default 2000 vertices; the "
                 "other built-in meshes are closed, which LSCM refuses)")
      ->type_name("PATH|builtin:NAME")
      ->capture_default_str();
  cli.add_option("--noise", noiseText, "Normal noise added to the mesh, in mean edge lengths")
      ->type_name("X")
      ->capture_default_str();
  cli.add_option("--seed", seedText, "Seed of the noise and of the built-in mesh")->type_name("N")->capture_default_str();
  cli.add_option("--pins", pinsText, "The two pinned vertices (0-based); default: the boundary vertices farthest apart")
      ->type_name("A,B");
  cli.add_option("--route", routeText, "normal: A^T A on the CPU, Jacobi-PCG on the GPU; cgls: A and A^T on the GPU")
      ->type_name("normal|cgls")
      ->capture_default_str();
  cli.add_option("--format", formatText, "The normal matrix's GPU format (auto: BCRS 2x2)")
      ->type_name("auto|segment|bcrs2|bcrs4")
      ->capture_default_str();
  cli.add_option("--precond", precondText,
                 "CG's preconditioner: smoothed-aggregation multigrid (normal route only), Jacobi, or none; auto: "
                 "multigrid on the normal route, Jacobi for CGLS")
      ->type_name("auto|multigrid|jacobi|none")->capture_default_str();
  cli.add_option("--cg-tol", tolText, "Relative residual of the normal equations to reach, in (0, 1)")
      ->type_name("TOL")
      ->capture_default_str();
  cli.add_option("--cg-max-iter", itText, "Iteration cap of one GPU solve, >= 1")->type_name("N")->capture_default_str();
  cli.add_option("--refine", refineText, "Rounds of defect correction in double after the GPU solve at most, ending early when one gains less than 2x (0: none)")
      ->type_name("N")
      ->capture_default_str();
  cli.add_option("--out", outPath, "Write the mesh with its (u, v) as OBJ (vt lines) after the run")->type_name("PATH.obj");
  cli.add_option("--export-system", exportDir,
                 "Write the LSCM normal equations A^T A x = A^T b into DIR before solving (for other solvers; see "
                 "apps/solve/petsc_solve.py)")
      ->type_name("DIR");
  cli.add_option("--export-format", exportFormat, "Format of --export-system: Matrix Market (A.mtx, b.mtx) or PETSc binary "
                                                  "(system.petsc)")
      ->type_name("mtx|petsc")
      ->capture_default_str();
  cmd.footer(app::kParamBindings);

  app::ParamSettings settings;
  const auto exitCode = cmd.parse(argc, argv, [&] {
    const std::string prefix = "builtin:";
    if (meshText.rfind(prefix, 0) == 0) {
      std::string rest = meshText.substr(prefix.size());
      if (const std::size_t colon = rest.find(':'); colon != std::string::npos) {
        app::parseInteger("--mesh", rest.substr(colon + 1), 4, 16'000'000);
        rest = rest.substr(0, colon);
      }
      const auto& names = geometry::builtinMeshNames();
      if (std::find(names.begin(), names.end(), rest) == names.end())
        throw app::UsageError("--mesh: invalid value \"" + meshText + "\": unknown built-in mesh \"" + rest +
                              "\" (the open one is patch)");
    } else {
      try {
        geometry::meshFormatFromPath(meshText);
      } catch (const geometry::MeshError&) {
        throw app::UsageError("--mesh: invalid value \"" + meshText + "\": unknown mesh format; accepted: .obj, .off, "
                              ".ply or builtin:patch");
      }
      if (!std::filesystem::exists(meshText)) throw app::UsageError("--mesh: invalid value \"" + meshText + "\": no such file");
    }
    settings.mesh = meshText;
    settings.noise = app::parseReal("--noise", noiseText, 0.0, 100.0, true);
    settings.seed = std::uint64_t(app::parseInteger("--seed", seedText, 0, (1ll << 53)));
    if (!pinsText.empty()) {
      const std::size_t comma = pinsText.find(',');
      if (comma == std::string::npos)
        throw app::UsageError("--pins: invalid value \"" + pinsText + "\": expected two vertex indices A,B");
      settings.pins = std::array<std::int32_t, 2>{
          std::int32_t(app::parseInteger("--pins", pinsText.substr(0, comma), 0, INT32_MAX)),
          std::int32_t(app::parseInteger("--pins", pinsText.substr(comma + 1), 0, INT32_MAX))};
    }
    settings.solver.route = app::parseChoice("--route", routeText, {"normal", "cgls"}) == "cgls"
                                ? solvers::LeastSquaresRoute::Cgls
                                : solvers::LeastSquaresRoute::NormalEquations;
    const std::string format = app::parseChoice("--format", formatText, {"auto", "segment", "bcrs2", "bcrs4"});
    settings.solver.format = format == "segment" ? solvers::SystemMatrixFormat::Segment
                             : format == "bcrs2" ? solvers::SystemMatrixFormat::Bcrs2
                             : format == "bcrs4" ? solvers::SystemMatrixFormat::Bcrs4
                                                 : solvers::SystemMatrixFormat::Auto;
    const std::string precond = app::parseChoice("--precond", precondText, {"auto", "multigrid", "jacobi", "none"});
    settings.solver.preconditioner = precond == "multigrid" ? solvers::SystemPreconditioner::Multigrid
                                     : precond == "jacobi"  ? solvers::SystemPreconditioner::Jacobi
                                     : precond == "none"    ? solvers::SystemPreconditioner::None
                                                            : solvers::SystemPreconditioner::Auto;
    if (settings.solver.route == solvers::LeastSquaresRoute::Cgls &&
        settings.solver.preconditioner == solvers::SystemPreconditioner::Multigrid)
      throw app::UsageError("--precond: invalid value \"multigrid\" with --route cgls: CGLS never forms the normal "
                            "matrix that multigrid coarsens (use --precond jacobi, or --route normal)");
    settings.solver.tolerance = float(app::parseReal("--cg-tol", tolText, 0.0, 0.999999, false));
    settings.solver.maxIterations = int(app::parseInteger("--cg-max-iter", itText, 1, 10000000));
    settings.solver.refinementSteps = int(app::parseInteger("--refine", refineText, 0, 100));
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
