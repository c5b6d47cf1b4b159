// texstream-smooth: mean curvature flow of a triangle mesh on the GPU (Bolz et al. 2003, §3,
// after Desbrun et al. 1999): every matrix entry recomputed on the GPU at every step from
// the I, N, P and C textures, then CG on the segment matrix, warm-started from the current
// positions. Windowed by default; --headless (or no DISPLAY) runs --steps and writes
// --screenshot / --json / --out / --record. The settings (SmoothDemo.h) are options and
// preset keys alike; a mesh file dropped onto the window is loaded (SmoothDemo::openFile).
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure (a malformed mesh: file and
// line), or a blow-up (the mesh running away: no OBJ is written); 2 a bad command line.
#include "DemoMain.h"
#include "ObjOutOption.h"
#include "SmoothDemo.h"

int main(int argc, char** argv) {
  using namespace texstream;
  app::ObjOutOption out;
  // Mesh errors (file:line) exit 1 with the message, through runDemo.
  return app::demoMain<app::SmoothDemo>(argc, argv, [&](app::SmoothSettings& settings) -> app::DemoProgram {
    return {.info = {"smooth", "texstream-smooth: mean curvature flow", 1280, 800, app::kSmoothBindings},
            .description = "texstream-smooth: mean curvature flow of a triangle mesh on the GPU (Bolz et al. 2003, s3)",
            .meshSetsSizes = true,
            .defaults = {.defaultSteps = 10},
            .addOptions =
                [&](CLI::App& cli) {
                  out.addTo(cli, "Write the smoothed mesh as OBJ after the run (same coordinates and vertex order as "
                                 "the input)");
                },
            .validate =
                [&] {
                  if (out.check()) settings.result = std::make_shared<geometry::Mesh>();
                },
            .afterRun =
                [&] {
                  if (settings.result) out.write("texstream-smooth", "smoothed mesh", *settings.result);
                }};
  });
}
