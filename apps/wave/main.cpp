// texstream-wave: the 2D wave equation of Krüger & Westermann (GPU Gems 2, §44.4) as a lit
// height field, explicit or implicit (Crank–Nicolson + CG), on the fragment or compute
// backend. Windowed by default; --headless (or no DISPLAY) runs --steps and writes
// --screenshot / --json / --record. The settings (WaveSettings.h) are options and preset
// keys alike.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure or a blow-up (the explicit
// scheme past its CFL limit: NaN, or the energy running away); 2 a bad command line.
#include "DemoMain.h"
#include "WaveDemo.h"
#include "WaveSettings.h"

int main(int argc, char** argv) {
  using namespace texstream;
  return app::demoMain<app::WaveDemo>(argc, argv, [](app::WaveSettings& settings) -> app::DemoProgram {
    return {.info = {"wave", "texstream-wave: 2D wave equation", 1280, 800, app::kWaveBindings},
            .description = "texstream-wave: the 2D wave equation on the GPU (Krueger & Westermann, GPU Gems 2 s44.4)",
            .defaults = {.size = {256, 256}},
            .validate = [&settings] { app::finishWaveSettings(settings); }};
  });
}
