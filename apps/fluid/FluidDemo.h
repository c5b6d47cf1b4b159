#pragma once
// The texstream-fluid demo: Stam's stable fluids on Bolz's layered multigrid (fluid/
// FluidSolver.h), stirred with the mouse, every solver knob in the panel (FluidSettings.h:
// the same names as the command line and the presets).
//  - left drag: force and dye; right drag: paint obstacles (shift + right drag: erase);
//  - keys: kFluidBindings below, and the shell's (space pauses, R resets, S screenshots, ...);
//  - the JSON report holds per step the divergence before and after the projection, the
//    relative residual after each cycle (or CG/Jacobi check), the solver's iterations and
//    the GPU ms per pass (with --profile, the latest completed step's).
#include "FluidRenderer.h"
#include "FluidSettings.h"
#include "KeyBindings.h"
#include "PassTimes.h"
#include "SettingsDemo.h"

#include <texstream/fluid/FluidSolver.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace texstream::app {

inline constexpr Binding kFluidBindings[] = {
    {"left drag", "push the fluid and add dye"},
    {"right drag", "paint obstacles"},
    {"shift + right drag", "erase obstacles"},
    {"P", "a few random coloured splats"},
    {"D", "next displayed field"},
};

class FluidDemo : public SettingsDemo<FluidSettings, describeFluidSettings> {
 public:
  FluidDemo(const RunContext& ctx, const FluidSettings& settings);
  ~FluidDemo() override;

  void step() override;
  void render(int width, int height) override;
  void gui(ShellControls& controls) override;
  /// The keys P and D, and the legend of the displayed quantity.
  void overlay(ShellControls& controls) override;
  void mouse(const MouseInput& input) override;
  void report(nlohmann::json& out) const override;
  /// The sum of squared node speeds, bounded by every node moving kRunawayCellsPerStep
  /// cells a step: far beyond anything a scene or the mouse injects (an inflow moves 2).
  HealthMeasure measureHealth(stream::Scalar& out) override;
  void restart() override;

  static constexpr double kRunawayCellsPerStep = 1000;

 private:
  void syncSettings() override;
  /// The defaults, with the command line's --export-fields.
  FluidSettings presetBase() const override;
  /// A preset rebuilds the solver (a fresh flow).
  void applySettings() override { rebuild(); }
  void rebuild();
  void exportFields();
  /// Where the grid is drawn in a width x height view (aspect kept), y from the top.
  void viewRect(int width, int height, float& x, float& y, float& w, float& h) const;
  /// `count` splats of random colour, place and direction (seeded: runs repeat).
  void randomSplats(int count);
  /// The colour bar of the displayed quantity at the bottom of the view, with its range.
  void legend(const ShellControls& controls);

  std::unique_ptr<fluid::FluidSolver> m_solver;
  std::unique_ptr<FluidRenderer> m_renderer;
  bool m_exported = false;
  bool m_halfFloatReported = false;
  int m_lastWidth = 0, m_lastHeight = 0;
  float m_hue = 0;
  std::mt19937 m_random{1};

  // Per-step records (JSON, plots).
  std::vector<fluid::StepStats> m_steps;
  PassTimes m_passMs;
  std::vector<float> m_plotResidual;
  stream::GridField m_velocityImage;  ///< measureHealth's node velocities
};

}  // namespace texstream::app
