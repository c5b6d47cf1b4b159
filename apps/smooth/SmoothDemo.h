#pragma once
// The texstream-smooth demo: mean curvature flow of a triangle mesh on the GPU (Bolz et al.
// 2003, §3, fig. 4: a noisy cube and a scanned mesh denoised by geometric flow), drawn
// straight from the flow's position texture, with a Dear ImGui panel for the mesh, noise,
// λΔt, CG, boundary, rescaling and backend.
#include "DsiMethod.h"
#include "KeyBindings.h"
#include "MeshRenderer.h"
#include "OrbitCamera.h"
#include "SettingsDemo.h"
#include "SmoothSettings.h"
#include "StepAdvice.h"

#include <texstream/geometry/CurvatureFlow.h>
#include <texstream/geometry/Mesh.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace texstream::app {

inline constexpr Binding kSmoothBindings[] = {
    {"left or right drag", "orbit"},
    {"scroll", "zoom"},
    {"drop a mesh file", "load it (.obj, .off, .ply)"},
};

class SmoothDemo : public SettingsDemo<SmoothSettings, describeSmoothSettings> {
 public:
  SmoothDemo(const RunContext& ctx, SmoothSettings settings);
  ~SmoothDemo() override;

  void step() override;
  void render(int width, int height) override;
  void gui(ShellControls& controls) override;
  void mouse(const MouseInput& input) override;
  void report(nlohmann::json& out) const override;
  /// The mesh's area, within [kCollapseFactor, kRunawayFactor] x the initial area:
  /// curvature flow shrinks a mesh (or, rescaled, keeps its size), so an area grown by
  /// orders of magnitude has run away, and one shrunk by six has collapsed to a point,
  /// past which the cotangent weights of its degenerate triangles make the steps garbage.
  HealthMeasure measureHealth(stream::Scalar& out) override;
  void restart() override;
  /// A mesh file (.obj, .off, .ply) handed over by a drop onto the window or the page, or
  /// the page's file picker (the one entry for all of them): read through the same readers
  /// as --mesh, noised as a file (--noise, else none), and flowing from the next step; on
  /// any error (not a mesh, malformed, too large for the texture limit) the current mesh
  /// stays and the message names the file and the problem.
  FileResult openFile(const std::string& path) override;
  /// The smoothed mesh as OBJ: `folder`/NAME-smoothed.obj.
  FileResult saveResult(const std::string& folder) override;

  static constexpr double kRunawayFactor = 1e4;
  static constexpr double kCollapseFactor = 1e-6;

 private:
  /// The panel's noise and λΔt into m_settings.
  void syncSettings() override;
  /// The defaults, with the command line's --out.
  SmoothSettings presetBase() const override;
  /// A preset starts over (its mesh, noise and flow settings).
  void applySettings() override { start(); }
  /// start() changes nothing where it throws.
  void restoreSettings() override {}
  void presetLoaded(const std::string& source) override;
  /// Reads (or builds) the mesh of `spec`, adds `noise` and starts a new flow on it; on any
  /// error (MeshError, std::invalid_argument, gl::Error) nothing changes.
  void setMesh(const MeshSpec& spec, double noise);
  /// Restarts the flow from clean + noise(seed) (same connectivity: positions only).
  void applyNoise();
  std::unique_ptr<geometry::CurvatureFlow> makeFlow(const geometry::Mesh& mesh) const;
  void recordStep(const solvers::SolverStatus& status, double ms);
  StepSettings currentStepSettings() const;
  void exportObj(const std::string& path);
  /// The health measure of the positions just set: the reference of measureHealth's range.
  void measureReference();
  /// Builds everything from m_settings (the constructor, a preset).
  void start();

  MeshSpec m_spec;
  geometry::Mesh m_clean, m_initial;
  double m_noise = 0, m_lambdaDt = 0, m_edgeLength = 1, m_curvatureReference = 1;
  double m_referenceArea = 0;  ///< the area of the initial positions
  std::unique_ptr<geometry::CurvatureFlow> m_flow;
  std::unique_ptr<DsiMethod> m_dsi;  ///< built on the first DSI step, rebuilt when stale
  MeshRenderer m_renderer;
  OrbitCamera m_camera;
  MeshView m_view;
  bool m_shadingDirty = true;

  // GUI state.
  char m_pathField[512] = {};
  char m_exportField[512] = "smoothed.obj";
  std::string m_status;  ///< last load/export message
  bool m_statusIsError = false;
  int m_builtinVertices = 10000;

  // Per-step records (the JSON report and the plots).
  std::vector<int> m_iterations;
  std::vector<double> m_residuals, m_ms, m_area, m_volume;
  std::vector<std::size_t> m_degenerate;
  std::vector<std::string> m_outcomes;
  /// The steps that did not converge: step, outcome, residual, remedies, advice.
  std::vector<nlohmann::json> m_unconverged;
  std::string m_lastAdvice;  ///< the last step's advice (panel), empty when it converged
  /// Mixed precision: each step's inner CG iterations per refinement step.
  std::vector<std::vector<int>> m_innerIterations;
  /// Each step's true residual ||b - A x||/||b|| (null where no convergence formed one).
  std::vector<nlohmann::json> m_trueResiduals;
  /// The steps (1-based) solved in mixed precision.
  std::vector<long long> m_mixedSteps;
};

}  // namespace texstream::app
