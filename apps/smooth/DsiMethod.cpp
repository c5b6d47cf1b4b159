#include "DsiMethod.h"

#include <texstream/geometry/CurvatureFlow.h>

#include <iostream>

namespace texstream::app {

DsiMethod::DsiMethod(const geometry::CurvatureFlow& flow, const DsiSettings& settings, float tolerance, int maxIterations)
    : m_flow(&flow), m_fixBoundary(flow.options().fixBoundary), m_settings(settings) {
  geometry::DsiOptions o;
  o.fixBoundary = m_fixBoundary;
  o.dataWeight = settings.dataWeight;
  o.solver.cg.tolerance = tolerance;
  o.solver.cg.maxIterations = maxIterations;
  m_dsi = std::make_unique<geometry::DsiSmoother>(flow.sourceMesh(), o, "smooth.dsi");
  for (const std::string& note : m_dsi->notes())
    std::cerr << "texstream-smooth: DSI: " << flow.sourceMesh().name << ": " << note << "\n";
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
  out["dsi_mesh_notes"] = m_dsi->notes();
}

}  // namespace texstream::app
