#pragma once
// The texstream-param demo: LSCM parameterization of a triangle mesh on the GPU (Lévy et
// al. 2002; Buatois et al. 2008 solve it with the CNC): the mesh drawn with a checkerboard
// through its (u, v) beside the (u, v) plane, the pins draggable in the plane (each drag
// re-solves from the current map), the distortion figures and the CG residual in the panel.
#include "DemoRunner.h"
#include "KeyBindings.h"
#include "OrbitCamera.h"
#include "ParamRenderer.h"
#include "ParamSettings.h"
#include "Settings.h"

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

class ParamDemo : public Demo {
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
  void measureHealth(stream::Scalar& out) override;
  HealthMeasure health() const override;
  void restart() override;
  bool hasPresets() const override { return true; }
  nlohmann::ordered_json saveSettings() override;
  /// Builds the mesh and the map from the loaded settings; on an error the demo keeps the
  /// previous ones and the error names the source.
  std::vector<std::string> loadSettings(const nlohmann::json& values, const std::string& source) override;

 private:
  /// Reads the mesh and builds the map's system from m_settings (the constructor and a
  /// loaded preset).
  void start();
  void solve();
  /// The plane view's transform from the current (u, v) box into the right half.
  void frameUv(int width, int height);

  ParamSettings m_settings;
  SettingTable m_table;  ///< over m_settings
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
