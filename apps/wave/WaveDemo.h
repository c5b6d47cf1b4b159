#pragma once
// The texstream-wave demo: Krüger & Westermann's implicit water surface (GPU Gems 2,
// §44.4) as a lit height field, with a Dear ImGui panel for the scheme and its parameters.
#include "HeightFieldRenderer.h"
#include "KeyBindings.h"
#include "OrbitCamera.h"
#include "SettingsDemo.h"
#include "WaveSettings.h"

#include <texstream/wave/WaveEquation.h>

#include <optional>
#include <vector>

namespace texstream::app {

inline constexpr Binding kWaveBindings[] = {
    {"left click", "drop a ripple"},
    {"right drag", "orbit"},
    {"scroll", "zoom"},
    {"C", "clear the water"},
};

class WaveDemo : public SettingsDemo<WaveSettings, describeWaveSettings> {
 public:
  WaveDemo(const RunContext& ctx, const WaveSettings& settings);

  void step() override;
  void render(int width, int height) override;
  void gui(ShellControls& controls) override;
  /// The key C (clear the water).
  void overlay(ShellControls& controls) override;
  void mouse(const MouseInput& input) override;
  void report(nlohmann::json& out) const override;
  /// The discrete energy (WaveEquation::energy), bounded by kRunawayFactor x the energy
  /// after the last input (start, drop, reset, parameter change).
  HealthMeasure measureHealth(stream::Scalar& out) override;
  void restart() override;

  /// A stable scheme keeps the energy (no damping) or loses it; the explicit one past its
  /// CFL limit multiplies it every step.
  static constexpr double kRunawayFactor = 1e4;

 private:
  void syncSettings() override { m_settings.params = m_wave->parameters(); }
  /// Completes the preset's dt; a size beyond this context's texture limit throws.
  void checkPreset(WaveSettings& next, const std::string& source) const override;
  /// A preset rebuilds the simulation.
  void applySettings() override { rebuild(m_settings.width, m_settings.height); }
  /// (Re)creates the simulation at this size and drops the starting ripples.
  void rebuild(int width, int height);
  void dropStartingRipples();
  void frameCamera();

  int m_maxTextureSize = 0;
  std::optional<wave::WaveEquation> m_wave;
  HeightFieldRenderer m_renderer;
  OrbitCamera m_camera;
  int m_lastWidth = 0, m_lastHeight = 0;  ///< viewport of the last render (for picking)

  // Per-step records (the JSON report and the plots).
  std::vector<double> m_energy;
  std::vector<int> m_cgIterations;  ///< 0 for explicit steps
  std::vector<std::string> m_cgOutcomes;
  bool m_anyImplicit = false;
  /// The largest energy right after an input; the next step's energy updates it when
  /// m_inputSinceStep (a drop, a reset or a new dt, speed or scheme).
  double m_referenceEnergy = 0;
  bool m_inputSinceStep = true;
  wave::WaveParameters m_lastParameters;
};

}  // namespace texstream::app
