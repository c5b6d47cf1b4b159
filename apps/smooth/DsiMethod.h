#pragma once
// DSI smoothing (Mallet 1992, as Buatois et al. 2008 run it on the GPU) as a method of
// texstream-smooth beside curvature flow: each step is one DSI solve (geometry/Dsi.h) with
// its data rows at the current positions, written back into the flow's positions, so the
// drawing, the blow-up watch, the measures and --out stay the flow's.
#include <texstream/geometry/Dsi.h>
#include <texstream/solvers/SolverStatus.h>

#include <nlohmann/json.hpp>

#include <memory>

namespace texstream::geometry {
class CurvatureFlow;
}

namespace texstream::app {

struct DsiSettings {
  bool enabled = false;     ///< DSI instead of curvature flow
  double dataWeight = 0.1;  ///< DsiOptions::dataWeight: smaller smooths more per step
};

class DsiMethod {
 public:
  /// DSI on the flow's mesh, holding the boundary when the flow does.
  DsiMethod(const geometry::CurvatureFlow& flow, const DsiSettings& settings, float tolerance, int maxIterations);
  /// Whether this was built for `flow` as it is set now (else build a new one).
  bool matches(const geometry::CurvatureFlow& flow, const DsiSettings& settings) const;
  /// One DSI solve from the flow's positions, written back into the flow.
  solvers::SolverStatus step(geometry::CurvatureFlow& flow);
  /// "method", "dsi_data_weight", "dsi_roughness" (per step) into the report.
  void report(nlohmann::json& out) const;

 private:
  const geometry::CurvatureFlow* m_flow;
  bool m_fixBoundary;
  DsiSettings m_settings;
  std::unique_ptr<geometry::DsiSmoother> m_dsi;
  std::vector<double> m_roughness;
};

}  // namespace texstream::app
