// texstream-wave: the 2D wave equation of Krüger & Westermann (GPU Gems 2, §44.4) as a lit
// height field, explicit or implicit (Crank–Nicolson + CG), on the fragment or compute
// backend. Windowed by default; --headless (or no DISPLAY) runs --steps and writes
// --screenshot / --json.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure or a blow-up (the explicit
// scheme past its CFL limit: NaN, or the energy running away); 2 a bad command line.
#include "AppOptions.h"
#include "DemoRunner.h"
#include "WaveDemo.h"

#include <texstream/wave/WaveEquation.h>

int main(int argc, char** argv) {
  using namespace texstream;
  app::AppOptions defaults;
  defaults.size = {256, 256};
  app::CommandLine cmd("texstream-wave",
                       "texstream-wave: the 2D wave equation on the GPU (Krueger & Westermann, GPU Gems 2 s44.4)",
                       defaults);
  std::string schemeText = "implicit", dtText, speedText = "1", dampingText = "0", tolText = "1e-5", itText = "200";
  CLI::App& cli = cmd.cli();
  cli.add_option("--scheme", schemeText,
                 "Time stepping: " + app::namedHelp(wave::schemeNames()) + "; explicit needs c dt/h <= 0.707")
      ->type_name(stream::nameList(wave::schemeNames(), "|"))
      ->capture_default_str();
  cli.add_option("--dt", dtText, "Time step (> 0; default: 0.5 h / c, i.e. CFL 0.5)")->type_name("DT");
  cli.add_option("--speed", speedText, "Wave speed c (> 0)")->type_name("C")->capture_default_str();
  cli.add_option("--damping", dampingText, "Fraction of the velocity lost per step, in [0, 0.999]")
      ->type_name("D")
      ->capture_default_str();
  cli.add_option("--tolerance", tolText, "CG relative residual tolerance (implicit scheme), in (0, 1]")
      ->type_name("TOL")
      ->capture_default_str();
  cli.add_option("--max-iterations", itText, "CG iteration cap per step (implicit scheme), >= 1")
      ->type_name("N")
      ->capture_default_str();

  cli.footer(app::kDemoExitStatus);

  app::WaveSettings settings;
  const auto exitCode = cmd.parse(argc, argv, [&] {
    settings.params.scheme = app::parseNamed("--scheme", schemeText, wave::schemeNames());
    settings.params.speed = float(app::parseReal("--speed", speedText, 0.0, 1e6, false));
    if (!dtText.empty()) {
      settings.params.dt = float(app::parseReal("--dt", dtText, 0.0, 1e6, false));
      settings.autoDt = false;
    }
    settings.params.damping = float(app::parseReal("--damping", dampingText, 0.0, 0.999, true));
    settings.params.tolerance = float(app::parseReal("--tolerance", tolText, 0.0, 1.0, false));
    settings.params.maxIterations = int(app::parseInteger("--max-iterations", itText, 1, 1000000));
  });
  if (exitCode) return *exitCode;

  app::AppInfo info{"wave", "texstream-wave: 2D wave equation", 1280, 800};
  return app::runDemo(info, cmd.options(), [&](const app::RunContext& ctx) {
    return std::make_unique<app::WaveDemo>(ctx, settings);
  });
}
