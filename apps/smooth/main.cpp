// texstream-smooth: mean curvature flow of a triangle mesh on the GPU (Bolz et al. 2003, §3,
// after Desbrun et al. 1999): every matrix entry recomputed on the GPU at every step from
// the I, N, P and C textures, then CG on the segment matrix, warm-started from the current
// positions. Windowed by default; --headless (or no DISPLAY) runs --steps and writes
// --screenshot / --json / --out / --record. The settings (SmoothDemo.h) are options and
// preset keys alike; a mesh file dropped onto the window is loaded (SmoothDemo::openFile).
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure (a malformed mesh: file and
// line), or a blow-up (the mesh running away: no OBJ is written); 2 a bad command line.
#include "DemoMain.h"
#include "OutputPath.h"
#include "SmoothDemo.h"

#include <texstream/geometry/MeshIo.h>

#include <iostream>

int main(int argc, char** argv) {
  using namespace texstream;
  app::SmoothSettings settings;
  std::string outPath;
  return app::demoMain(
      argc, argv,
      {.info = {"smooth", "texstream-smooth: mean curvature flow", 1280, 800, app::kSmoothBindings},
       .description = "texstream-smooth: mean curvature flow of a triangle mesh on the GPU (Bolz et al. 2003, s3)\n"
                      "(--size is not used: the mesh sets the sizes.)",
       .defaults = {.defaultSteps = 10},
       .addOptions =
           [&](CLI::App& cli) {
             cli.add_option("--out", outPath,
                            "Write the smoothed mesh as OBJ after the run (same coordinates and vertex order as the "
                            "input)")
                 ->type_name("PATH.obj");
           },
       .describeSettings = [&](app::SettingTable& table) { app::describeSmoothSettings(table, settings); },
       .validate =
           [&] {
             app::requireWritablePath("--out", outPath);
             if (!outPath.empty()) settings.result = std::make_shared<geometry::Mesh>();
           },
       // Mesh errors (file:line) exit 1 with the message, through runDemo.
       .make = [&](const app::RunContext& ctx) { return std::make_unique<app::SmoothDemo>(ctx, settings); },
       .afterRun =
           [&] {
             if (!settings.result) return;
             if (settings.result->positions.empty()) throw std::runtime_error("no smoothed mesh to write to " + outPath);
             geometry::writeObj(outPath, *settings.result);
             std::cerr << "texstream-smooth: wrote " << outPath << "\n";
           }});
}
