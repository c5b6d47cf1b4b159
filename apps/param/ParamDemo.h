#pragma once
// The texstream-param demo: LSCM parameterization of a triangle mesh on the GPU (Lévy et
// al. 2002; Buatois et al. 2008 solve it with the CNC): the mesh drawn with a checkerboard
// through its (u, v) beside the (u, v) plane, the pins draggable in the plane (each drag
// re-solves from the current map), the distortion figures and the CG residual in the panel.
#include "KeyBindings.h"
#include "OrbitCamera.h"
#include "ParamRenderer.h"
#include "ParamSettings.h"
#include "SettingsDemo.h"

#include <texstream/geometry/Lscm.h>
#include <texstream/geometry/Mesh.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace texstream::app {

inline constexpr Binding kParamBindings[] = {
    {"drag on the left", "orbit the mesh"},
    {"drag a pin on the right", "move the map (re-solves)"},
};

class ParamDemo : public SettingsDemo<ParamSettings, describeParamSettings> {
 public:
  ParamDemo(const RunContext& ctx, ParamSettings settings);
  ~ParamDemo() override;

  /// Solves when something changed since the last solve (the first step always does).
  void step() override;
  void render(int width, int height) override;
  void gui(ShellControls& controls) override;
  void mouse(const MouseInput& input) override;
  void report(nlohmann::json& out) const override;
  /// (u, v) . (u, v): NaN or Inf where the map holds them.
  HealthMeasure measureHealth(stream::Scalar& out) override;
  void restart() override;

 private:
  /// A preset is read over the current settings.
  ParamSettings presetBase() const override { return m_settings; }
  void checkPreset(ParamSettings& next, const std::string& /*source*/) const override { checkParamSettings(next); }
  /// A preset builds the mesh and the map.
  void applySettings() override { start(); }
  void presetLoaded(const std::string& source) override { m_status = "loaded " + source; }
  /// Reads the mesh and builds the map's system from m_settings (the constructor and a
  /// loaded preset).
  void start();
  void solve();
  /// The plane view's transform from the current (u, v) box into the right half.
  void frameUv(int width, int height);

  geometry::Mesh m_mesh;
  std::unique_ptr<geometry::Lscm> m_lscm;
  std::unique_ptr<ParamRenderer> m_renderer;
  OrbitCamera m_camera;
  ParamView m_view;
  bool m_dirty = true, m_reframe = true;
  int m_dragPin = -1;
  int m_width = 1, m_height = 1;
  double m_setupMs = 0;
  std::array<double, 4> m_initialPinUv{};

  // Records.
  int m_solves = 0;
  solvers::SolverStatus m_last;
  double m_lastSolveMs = 0;
  geometry::LscmQuality m_quality;
  std::string m_status;
};

}  // namespace texstream::app
