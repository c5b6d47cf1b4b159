#pragma once
// The texstream-fluid3d demo: smoke and liquid in 3D (fluid/FluidSolver3D.h), ray-cast from
// an orbit camera (Fluid3DRenderer.h), every solver knob in the panel (Fluid3DSettings.h: the
// same names as the command line and the presets).
//  - left or right drag orbits, scroll zooms; keys: kFluid3DBindings below, and the shell's
//    (space pauses, R resets, S screenshots, ...);
//  - the JSON report holds per step the divergence before and after the projection, its
//    relative residual and CG iterations, the largest speed, for liquids the volume, and with
//    --profile the GPU ms per pass.
#include "Fluid3DRenderer.h"
#include "Fluid3DSettings.h"
#include "KeyBindings.h"
#include "OrbitCamera.h"
#include "PassTimes.h"
#include "SettingsDemo.h"

#include <texstream/fluid/FluidSolver3D.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace texstream::app {

inline constexpr Binding kFluid3DBindings[] = {
    {"left or right drag", "orbit"},
    {"scroll", "zoom"},
    {"C", "the initial camera"},
};

class Fluid3DDemo : public SettingsDemo<Fluid3DSettings, describeFluid3DSettings> {
 public:
  /// Throws UsageError naming --size when the grid does not fit the context's textures.
  Fluid3DDemo(const RunContext& ctx, const Fluid3DSettings& settings);
  /// With --export-system: writes the last step's pressure system (A, b) and texstream's
  /// solution (x_texstream.mtx) into the directory (FluidSolver3D::pressureSystem).
  ~Fluid3DDemo() override;

  void step() override;
  void render(int width, int height) override;
  void gui(ShellControls& controls) override;
  /// The key C.
  void overlay(ShellControls& controls) override;
  void mouse(const MouseInput& input) override;
  void report(nlohmann::json& out) const override;
  /// The sum of squared face speeds, bounded by every face moving kRunawayCellsPerStep
  /// cells a step: far beyond anything a scene drives.
  HealthMeasure measureHealth(stream::Scalar& out) override;
  void restart() override;

  static constexpr double kRunawayCellsPerStep = 1000;

 private:
  void syncSettings() override { m_settings.params = m_solver->parameters(); }
  /// A preset rebuilds the solver (a fresh flow).
  void applySettings() override { rebuild(); }
  void rebuild();
  void frameCamera();
  glm::mat4 simToWorld() const;
  std::string sizeText() const;

  std::unique_ptr<fluid::FluidSolver3D> m_solver;
  Fluid3DRenderer m_renderer;
  OrbitCamera m_camera;

  // Per-step records (JSON, plots).
  std::vector<fluid::StepStats3D> m_steps;
  std::vector<double> m_volume;  ///< liquid scenes only
  std::vector<nlohmann::json> m_unconverged;
  PassTimes m_passMs;
  double m_initialVolume = 0;  ///< the liquid's volume after the first step since a (re)start
};

}  // namespace texstream::app
