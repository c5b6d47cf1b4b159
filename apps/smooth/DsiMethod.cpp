#include "DsiMethod.h"

#include <texstream/geometry/CurvatureFlow.h>

#include <imgui.h>

namespace texstream::app {

DsiMethod::DsiMethod(const geometry::CurvatureFlow& flow, const DsiSettings& settings, float tolerance, int maxIterations)
    : m_flow(&flow), m_fixBoundary(flow.options().fixBoundary), m_settings(settings) {
  geometry::DsiOptions o;
  o.fixBoundary = m_fixBoundary;
  o.dataWeight = settings.dataWeight;
  o.solver.tolerance = tolerance;
  o.solver.maxIterations = maxIterations;
  m_dsi = std::make_unique<geometry::DsiSmoother>(flow.sourceMesh(), o, "smooth.dsi");
}

bool DsiMethod::matches(const geometry::CurvatureFlow& flow, const DsiSettings& settings) const {
  return m_flow == &flow && m_fixBoundary == flow.options().fixBoundary && m_settings.dataWeight == settings.dataWeight;
}

solvers::SolverStatus DsiMethod::step(geometry::CurvatureFlow& flow) {
  const std::vector<double> current = flow.downloadPositions();
  if (m_roughness.empty()) m_roughness.push_back(m_dsi->roughness(current));
  const solvers::SolverStatus status = m_dsi->step(current);
  flow.setPositions(m_dsi->positions());
  m_roughness.push_back(m_dsi->roughness(m_dsi->positions()));
  return status;
}

void DsiMethod::report(nlohmann::json& out) const {
  out["dsi_data_weight"] = m_settings.dataWeight;
  out["dsi_held_vertices"] = m_dsi->heldVertexCount();
  out["dsi_roughness"] = m_roughness;  // before the first step, then after each
}

void dsiPanel(DsiSettings& settings) {
  int method = settings.enabled ? 1 : 0;
  if (ImGui::Combo("method", &method, "curvature flow (Bolz s3)\0DSI (Mallet 1992, CNC)\0")) settings.enabled = method == 1;
  if (settings.enabled) {
    float weight = float(settings.dataWeight);
    if (ImGui::SliderFloat("DSI data weight", &weight, 1e-3f, 10.0f, "%.3g", ImGuiSliderFlags_Logarithmic) && weight > 0)
      settings.dataWeight = weight;
    ImGui::TextDisabled("each step: min roughness + weight |x - x_now|^2");
  }
}

}  // namespace texstream::app
