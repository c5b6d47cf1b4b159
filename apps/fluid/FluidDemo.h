#pragma once
// The texstream-fluid demo: Stam's stable fluids on Bolz's layered multigrid (fluid/
// FluidSolver.h), stirred with the mouse, every solver knob in a Dear ImGui panel.
//  - left drag: force and dye; right drag: paint obstacles (shift + right drag: erase);
//  - keys: space pauses, R resets, S writes a screenshot;
//  - the JSON report holds per step the divergence before and after the projection, the
//    relative residual after each cycle (or CG/Jacobi check), the solver's iterations and
//    the GPU ms per pass (with --profile, the latest completed step's).
#include "DemoRunner.h"
#include "FluidRenderer.h"

#include <texstream/fluid/FluidSolver.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace texstream::app {

struct FluidSettings {
  fluid::FluidParameters params;
  fluid::Field display = fluid::Field::Dye;
  bool particles = false;        ///< draw the display particles
  std::string exportFields;      ///< CSV written after the last step ("" = none)
  long long exportAfter = -1;    ///< the step count after which to write it (-1: on exit)
};

class FluidDemo : public Demo {
 public:
  FluidDemo(const RunContext& ctx, const FluidSettings& settings);
  ~FluidDemo() override;

  void step() override;
  void render(int width, int height) override;
  void gui(ShellControls& controls) override;
  void mouse(const MouseInput& input) override;
  void report(nlohmann::json& out) const override;
  /// The sum of squared node speeds, bounded by every node moving kRunawayCellsPerStep
  /// cells a step: far beyond anything a scene or the mouse injects (an inflow moves 2).
  void measureHealth(stream::Scalar& out) override;
  HealthMeasure health() const override;
  void restart() override;

  static constexpr double kRunawayCellsPerStep = 1000;

 private:
  void rebuild();
  void exportFields();
  /// Where the grid is drawn in a width x height framebuffer (aspect kept), y from the top.
  void viewRect(int width, int height, float& x, float& y, float& w, float& h) const;

  FluidSettings m_settings;
  std::unique_ptr<fluid::FluidSolver> m_solver;
  std::unique_ptr<FluidRenderer> m_renderer;
  bool m_exported = false;
  int m_lastWidth = 0, m_lastHeight = 0;
  float m_brushRadius = 0, m_brushForce = 1.0f;
  float m_hue = 0;
  int m_pendingNx = 0, m_pendingNy = 0;

  // Per-step records (JSON, plots).
  std::vector<double> m_divBefore, m_divAfter, m_divAfterNodes, m_maxSpeed;
  std::vector<std::vector<double>> m_residuals;
  std::vector<int> m_iterations;
  std::vector<std::map<std::string, double>> m_passMs;
  std::vector<float> m_plotResidual;
  stream::GridField m_velocityImage;  ///< measureHealth's node velocities
};

}  // namespace texstream::app
