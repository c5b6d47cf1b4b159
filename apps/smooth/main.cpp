// texstream-smooth: mean curvature flow of a triangle mesh on the GPU (Bolz et al. 2003, §3,
// after Desbrun et al. 1999): every matrix entry recomputed on the GPU at every step from
// the I, N, P and C textures, then CG on the segment matrix, warm-started from the current
// positions. Windowed by default; --headless (or no DISPLAY) runs --steps and writes
// --screenshot / --json / --out / --record. The settings (SmoothDemo.h) are options and
// preset keys alike; a mesh file dropped onto the window is loaded (SmoothDemo::openFile).
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure (a malformed mesh: file and
// line), or a blow-up (the mesh running away: no OBJ is written); 2 a bad command line.
#include "AppOptions.h"
#include "DemoCommandLine.h"
#include "DemoRunner.h"
#include "MainGuard.h"
#include "OutputPath.h"
#include "SmoothDemo.h"

#include <texstream/geometry/MeshIo.h>

#include <iostream>

namespace {

int runMain(int argc, char** argv) {
  using namespace texstream;
  app::AppOptions defaults;
  defaults.defaultSteps = 10;
  app::DemoCommandLine cmd("texstream-smooth",
                       "texstream-smooth: mean curvature flow of a triangle mesh on the GPU (Bolz et al. 2003, s3)\n"
                       "(--size is not used: the mesh sets the sizes.)",
                       defaults);
  std::string outPath;
  CLI::App& cli = cmd.cli();
  cli.add_option("--out", outPath,
                 "Write the smoothed mesh as OBJ after the run (same coordinates and vertex order as the input)")
      ->type_name("PATH.obj");

  app::SmoothSettings settings;
  app::SettingTable table;
  app::describeSmoothSettings(table, settings);
  cmd.settings(table);
  cmd.footer(app::kSmoothBindings);

  const auto exitCode = cmd.parse(argc, argv, [&] {
    app::requireWritablePath("--out", outPath);
    if (!outPath.empty()) settings.result = std::make_shared<geometry::Mesh>();
  });
  if (exitCode) return *exitCode;

  // Mesh errors (file:line) exit 1 with the message, through runDemo.
  app::AppInfo info{"smooth", "texstream-smooth: mean curvature flow", 1280, 800, app::kSmoothBindings};
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

}  // namespace

int main(int argc, char** argv) {
  try {
    return runMain(argc, argv);
  } catch (...) {
    return texstream::app::failedMain("texstream-smooth");
  }
}
