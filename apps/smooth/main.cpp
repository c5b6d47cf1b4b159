// texstream-smooth: mean curvature flow of a triangle mesh on the GPU (Bolz et al. 2003, §3,
// after Desbrun et al. 1999): every matrix entry recomputed on the GPU at every step from
// the I, N, P and C textures, then CG on the segment matrix, warm-started from the current
// positions. Windowed by default; --headless (or no DISPLAY) runs --steps and writes
// --screenshot / --json / --out.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure (a malformed mesh: file and
// line), or a blow-up (the mesh running away: no OBJ is written); 2 a bad command line.
#include "AppOptions.h"
#include "DemoRunner.h"
#include "OutputPath.h"
#include "SmoothDemo.h"

#include <texstream/geometry/CurvatureFlow.h>
#include <texstream/geometry/MeshIo.h>
#include <texstream/text/Format.h>

#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
  using namespace texstream;
  app::AppOptions defaults;
  defaults.defaultSteps = 10;
  app::CommandLine cmd("texstream-smooth",
                       "texstream-smooth: mean curvature flow of a triangle mesh on the GPU (Bolz et al. 2003, s3)\n"
                       "(--size is not used: the mesh sets the sizes.)",
                       defaults);
  std::string meshText = "builtin:cube", dtText, noiseText, seedText = "1", tolText = "1e-5", itText = "500",
              rescaleText = "none", precondText = "jacobi", outPath, methodText = "curvature", dsiWeightText = "0.1",
              flowText = "mcf", precisionText = "single", innerTolText = "1e-3";
  bool freeBoundary = false;
  CLI::App& cli = cmd.cli();
  cli.add_option("--mesh", meshText,
                 "A mesh file (.obj, .off, .ply: ASCII or binary) or builtin:NAME[:VERTICES] with NAME one of cube, "
                 "icosphere, torus, patch (default 10000 vertices)")
      ->type_name("PATH|builtin:NAME")
      ->capture_default_str();
  cli.add_option("--dt", dtText,
                 "lambda*dt of a step, in the mesh's own units (no normalisation of the geometry); default: the "
                 "squared mean edge length of the mesh")
      ->type_name("X");
  cli.add_option("--noise", noiseText,
                 "Normal noise added to the mesh, in mean edge lengths (default 0.3 for built-in meshes, 0 for files)")
      ->type_name("X");
  cli.add_option("--seed", seedText, "Seed of the noise")->type_name("N")->capture_default_str();
  cli.add_option("--cg-tol", tolText, "CG tolerance: stop at ||r|| / ||b|| below it (x, y, z together), in (0, 1)")
      ->type_name("TOL")
      ->capture_default_str();
  cli.add_option("--cg-max-iter", itText, "CG iteration cap per step, >= 1")->type_name("N")->capture_default_str();
  cli.add_option("--precond", precondText, "CG preconditioner: jacobi (diag(A); needed on real scans, where plain CG stalls) or none")->type_name("jacobi|none")->capture_default_str();
  cli.add_option("--flow", flowText, "Flow: " + app::namedHelp(geometry::flowNames()))
      ->type_name("mcf|cmcf")
      ->capture_default_str();
  cli.add_option("--precision", precisionText,
                 "Solver precision: " + app::namedHelp(solvers::precisionNames()) +
                     "; mixed reaches --cg-tol on ill-conditioned steps where float CG stalls")
      ->type_name("single|mixed")
      ->capture_default_str();
  cli.add_option("--inner-tol", innerTolText,
                 "Mixed precision: the residual reduction each inner CG solve asks for, in (0, 1)")
      ->type_name("TOL")
      ->capture_default_str();
  cli.add_flag("--free-boundary", freeBoundary,
               "Let boundary vertices move too (default: fixed, as in Bolz et al.)");
  cli.add_option("--rescale", rescaleText, "Rescale after each step to keep the initial area or volume (needs a closed "
                                           "mesh or --free-boundary)")
      ->type_name(stream::nameList(geometry::rescaleNames(), "|"))
      ->capture_default_str();
  cli.add_option("--method", methodText,
                 "curvature: mean curvature flow (Bolz et al. 2003); dsi: Discrete Smooth Interpolation (Mallet 1992, "
                 "as the CNC solves it), one least-squares solve a step")
      ->type_name("curvature|dsi")
      ->capture_default_str();
  cli.add_option("--dsi-weight", dsiWeightText, "DSI: weight of the data rows pulling each vertex to where it was, > 0")
      ->type_name("X")
      ->capture_default_str();
  cli.add_option("--out", outPath,
                 "Write the smoothed mesh as OBJ after the run (same coordinates and vertex order as the input)")
      ->type_name("PATH.obj");

  cli.footer(app::kDemoExitStatus);

  app::SmoothSettings settings;
  const auto exitCode = cmd.parse(argc, argv, [&] {
    const app::MeshSpec spec = app::parseMeshSpec("--mesh", meshText);
    if (!spec.builtin) {
      try {
        geometry::meshFormatFromPath(spec.name);
      } catch (const geometry::MeshError&) {
        const std::string ext = std::filesystem::path(spec.name).extension().string();
        throw app::UsageError("--mesh: invalid value " + text::quoted(meshText) + ": unknown mesh format " +
                              (ext.empty() ? std::string("(no extension)") : text::quoted(ext)) +
                              "; accepted: .obj, .off, .ply (any case) or builtin:NAME");
      }
      if (!std::filesystem::exists(spec.name))
        throw app::UsageError("--mesh: invalid value " + text::quoted(meshText) + ": no such file");
    }
    settings.mesh = meshText;
    if (!dtText.empty()) settings.lambdaDt = app::parseReal("--dt", dtText, 0.0, 1e30, true);
    if (!noiseText.empty()) settings.noise = app::parseReal("--noise", noiseText, 0.0, 100.0, true);
    settings.seed = std::uint64_t(app::parseInteger("--seed", seedText, 0, (1ll << 53)));
    settings.cgTolerance = float(app::parseReal("--cg-tol", tolText, 0.0, 0.999999, false));
    settings.cgMaxIterations = int(app::parseInteger("--cg-max-iter", itText, 1, 10000000));
    settings.jacobi = app::parseChoice("--precond", precondText, {"jacobi", "none"}) == "jacobi";
    settings.fixBoundary = !freeBoundary;
    settings.flow = app::parseNamed("--flow", flowText, geometry::flowNames());
    settings.precision = app::parseNamed("--precision", precisionText, solvers::precisionNames());
    settings.innerTolerance = float(app::parseReal("--inner-tol", innerTolText, 0.0, 0.999999, false));
    settings.rescale = app::parseNamed("--rescale", rescaleText, geometry::rescaleNames());
    settings.dsi.enabled = app::parseChoice("--method", methodText, {"curvature", "dsi"}) == "dsi";
    settings.dsi.dataWeight = app::parseReal("--dsi-weight", dsiWeightText, 0.0, 1e6, false);
    app::requireWritablePath("--out", outPath);
    if (!outPath.empty()) settings.result = std::make_shared<geometry::Mesh>();
  });
  if (exitCode) return *exitCode;

  // Mesh errors (file:line) exit 1 with the message, through runDemo.
  app::AppInfo info{"smooth", "texstream-smooth: mean curvature flow", 1280, 800};
  const int rc = app::runDemo(info, cmd.options(), [&](const app::RunContext& ctx) {
    return std::make_unique<app::SmoothDemo>(ctx, settings);
  });
  if (rc != 0 || !settings.result) return rc;
  if (settings.result->positions.empty()) {
    std::cerr << "texstream-smooth: error: no smoothed mesh to write to " << outPath << "\n";
    return 1;
  }
  try {
    geometry::writeObj(outPath, *settings.result);
    std::cerr << "texstream-smooth: wrote " << outPath << "\n";
  } catch (const std::exception& e) {
    std::cerr << "texstream-smooth: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
