#include "ParamDemo.h"

#include "MainGuard.h"
#include "Panel.h"

#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/geometry/MeshIo.h>
#include <texstream/linalg/MatrixMarket.h>
#include <texstream/linalg/SystemExport.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>

namespace texstream::app {

namespace {

const char* kRoutes = "normal equations (BCRS)\0CGLS (segment A, A^T)\0";
// In the order of solvers::SystemPreconditioner.
const char* kPreconditioners = "auto (multigrid)\0none\0Jacobi\0multigrid (smoothed aggregation)\0";
const char* kCglsPreconditioners = "auto (Jacobi)\0none\0Jacobi\0";

double boundingRadius(const geometry::Mesh& m) {
  const std::vector<double> b = m.bounds();
  const double r = 0.5 * std::hypot(b[3] - b[0], b[4] - b[1], b[5] - b[2]);
  return r > 0 ? r : 1.0;
}

}  // namespace

ParamDemo::ParamDemo(const RunContext& ctx, ParamSettings settings) : SettingsDemo(std::move(settings)) {
  (void)ctx;
  start();
}

void ParamDemo::start() {
  m_dirty = m_reframe = true;
  m_dragPin = -1;
  const std::string prefix = "builtin:";
  if (m_settings.mesh.rfind(prefix, 0) == 0) {
    std::string rest = m_settings.mesh.substr(prefix.size());
    std::size_t vertices = 2000;
    if (const std::size_t colon = rest.find(':'); colon != std::string::npos) {
      vertices = std::stoul(rest.substr(colon + 1));  // validated by the settings (checkMeshSpec)
      rest = rest.substr(0, colon);
    }
    m_mesh = geometry::builtinMesh(rest, vertices, 0.0, m_settings.seed);
  } else {
    ReadingInput reading("--mesh", m_settings.mesh);
    m_mesh = geometry::readMesh(m_settings.mesh);
  }
  for (const std::string& note : m_mesh.notes) std::cerr << "texstream-param: " << m_mesh.name << ": " << note << "\n";
  if (m_settings.noise > 0) geometry::addNormalNoise(m_mesh, m_settings.noise, m_settings.seed);

  geometry::LscmOptions o;
  o.pins = parsePins("pins", m_settings.pins);
  o.solver = m_settings.solver;
  m_lscm = std::make_unique<geometry::Lscm>(m_mesh, o, "lscm");
  for (const std::string& note : m_lscm->notes()) std::cerr << "texstream-param: " << m_mesh.name << ": " << note << "\n";
  m_initialPinUv = m_lscm->pinUv();
  const solvers::SystemSolverSetup& setup = m_lscm->solver().setup();
  m_setupMs = m_lscm->buildMs() + setup.uploadMs + setup.multigridMs;
  std::cerr << "texstream-param: " << m_mesh.name << ": " << m_mesh.vertexCount() << " vertices, "
            << m_mesh.triangleCount() << " triangles, " << m_lscm->boundaryLoopCount() << " boundary loops; pins "
            << m_lscm->pins()[0] << " and " << m_lscm->pins()[1] << "\n";
  if (!m_settings.exportDirectory.empty()) {
    for (const std::string& path : linalg::exportSystem(m_lscm->system(), m_settings.exportDirectory,
                                                        m_settings.exportPetsc ? linalg::SystemFileFormat::Petsc
                                                                               : linalg::SystemFileFormat::MatrixMarket))
      std::cerr << "texstream-param: wrote " << path << "\n";
  }
  m_renderer = std::make_unique<ParamRenderer>(m_mesh);
  m_camera.frame(glm::vec3(0.0f), float(boundingRadius(m_mesh)));
}

ParamDemo::~ParamDemo() {
  if (!m_settings.resultMesh || !m_lscm) return;
  try {
    *m_settings.resultMesh = m_mesh;
    *m_settings.resultUv = m_lscm->downloadUv();
  } catch (const std::exception& e) {
    std::cerr << "texstream-param: error: reading the map back: " << e.what() << "\n";
  }
}

void ParamDemo::solve() {
  const auto t0 = std::chrono::steady_clock::now();
  m_last = m_lscm->solve();
  m_lastSolveMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  m_quality = m_lscm->quality();
  ++m_solves;
  if (!m_settings.exportDirectory.empty()) {
    // texstream's answer beside the exported system, in its unknowns' order, for comparison.
    const std::vector<double> uv = m_lscm->downloadUv();
    const std::vector<std::int32_t>& scalarOf = m_lscm->system().scalarOfUnknown();
    std::vector<double> x(scalarOf.size());
    for (std::size_t u = 0; u < x.size(); ++u) x[u] = uv[std::size_t(scalarOf[u])];
    const std::string path = (std::filesystem::path(m_settings.exportDirectory) / "x_texstream.mtx").string();
    linalg::writeMatrixMarketVector(path, x, "texstream-param: " + m_last.message);
    std::cerr << "texstream-param: wrote " << path << "\n";
  }
  m_dirty = false;
  if (!m_last.converged()) std::cerr << "texstream-param: solve " << m_solves << ": " << m_last.message << "\n";
}

void ParamDemo::step() {
  if (m_dirty) solve();
}

void ParamDemo::frameUv(int width, int height) {
  const std::array<double, 4>& b = m_quality.uvBounds;
  const double du = std::max(b[2] - b[0], 1e-30), dv = std::max(b[3] - b[1], 1e-30);
  const int half = std::max(width - width / 2, 1);
  const double pixelsPerUnit = std::min(double(half) / du, double(std::max(height, 1)) / dv) / 1.15;
  m_view.uvScale = glm::vec2(float(2.0 * pixelsPerUnit / half), float(2.0 * pixelsPerUnit / std::max(height, 1)));
  m_view.uvOffset = glm::vec2(float(-(b[0] + b[2]) / 2) * m_view.uvScale.x, float(-(b[1] + b[3]) / 2) * m_view.uvScale.y);
  m_view.checkerFrequency = float(16.0 / std::max(du, dv));
}

void ParamDemo::render(int width, int height) {
  m_width = width;
  m_height = height;
  if (m_reframe && m_solves > 0) {
    frameUv(width, height);
    m_reframe = false;
  }
  // The view need not start at the window's corner (the panel sits left of it).
  GLint viewport[4] = {0, 0, width, height};
  glGetIntegerv(GL_VIEWPORT, viewport);
  glClearColor(0.10f, 0.11f, 0.13f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const int half = width / 2;
  const std::array<double, 4>& pins = m_lscm->pinUv();
  m_view.pins = {glm::vec2(float(pins[0]), float(pins[1])), glm::vec2(float(pins[2]), float(pins[3]))};
  m_view.activePin = m_dragPin;
  m_view.viewProjection = m_camera.projection(float(std::max(half, 1)) / float(std::max(height, 1))) * m_camera.view();
  m_view.eye = m_camera.eye();
  glViewport(viewport[0], viewport[1], std::max(half, 1), height);
  m_renderer->drawSurface(m_lscm->uv(), m_view);
  glViewport(viewport[0] + half, viewport[1], std::max(width - half, 1), height);
  m_renderer->drawPlane(m_lscm->uv(), m_view);
  glViewport(viewport[0], viewport[1], width, height);
}

void ParamDemo::mouse(const MouseInput& in) {
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  const float px = in.x * scale.x, py = in.y * scale.y;
  const int half = m_width / 2;
  // (u, v) under framebuffer pixel (px, py), origin top left.
  auto uvAt = [&](float x, float y) {
    const float clipX = (x - float(half)) / float(std::max(m_width - half, 1)) * 2.0f - 1.0f;
    const float clipY = 1.0f - y / float(std::max(m_height, 1)) * 2.0f;
    return glm::vec2((clipX - m_view.uvOffset.x) / m_view.uvScale.x, (clipY - m_view.uvOffset.y) / m_view.uvScale.y);
  };
  if (in.leftPressed && px >= float(half)) {
    m_dragPin = -1;
    float best = 12.0f * scale.x;  // pixels
    for (int k = 0; k < 2; ++k) {
      const glm::vec2 p = m_view.pins[std::size_t(k)];
      const float sx = float(half) + (p.x * m_view.uvScale.x + m_view.uvOffset.x + 1.0f) * 0.5f * float(m_width - half);
      const float sy = (1.0f - (p.y * m_view.uvScale.y + m_view.uvOffset.y)) * 0.5f * float(m_height);
      const float d = std::hypot(sx - px, sy - py);
      if (d < best) {
        best = d;
        m_dragPin = k;
      }
    }
  }
  if (!in.leftDown) m_dragPin = -1;
  if (m_dragPin >= 0 && (in.dx != 0 || in.dy != 0)) {
    const glm::vec2 uv = uvAt(px, py);
    try {
      m_lscm->setPinUv(m_dragPin, uv.x, uv.y);
      m_dirty = true;
    } catch (const std::invalid_argument&) {
      // Dragged onto the other pin: keep the last position.
    }
    return;
  }
  if (px < float(half)) {
    if (in.leftDown || in.rightDown) m_camera.rotate(in.dx, in.dy);
    if (in.scroll != 0) m_camera.zoom(in.scroll);
  }
}

void ParamDemo::restart() {
  try {
    m_lscm->setPinUv(0, m_initialPinUv[0], m_initialPinUv[1]);
    m_lscm->setPinUv(1, m_initialPinUv[2], m_initialPinUv[3]);
  } catch (const std::invalid_argument&) {
    m_lscm->setPinUv(1, m_initialPinUv[2], m_initialPinUv[3]);
    m_lscm->setPinUv(0, m_initialPinUv[0], m_initialPinUv[1]);
  }
  m_dirty = true;
  m_reframe = true;
}

HealthMeasure ParamDemo::measureHealth(stream::Scalar& out) {
  linalg::dot(m_lscm->uv(), m_lscm->uv(), out);
  HealthMeasure h;
  h.quantity = "sum of squared (u, v)";
  h.limit = std::numeric_limits<double>::infinity();
  h.limitText = "any finite value";
  return h;
}

void ParamDemo::gui(ShellControls& controls) {
  ImGui::TextWrapped("LSCM (Levy et al. 2002) solved on the GPU as the CNC does (Buatois et al. 2008). Left: the mesh "
                     "with a checkerboard through its (u, v); drag to orbit. Right: the (u, v) plane; drag a pin "
                     "(yellow) to move the map.");
  ImGui::Separator();
  ImGui::TextWrapped("%s: %zu vertices, %zu triangles", m_mesh.name.c_str(), m_mesh.vertexCount(), m_mesh.triangleCount());
  ImGui::TextWrapped("%zu boundary loops; pins: vertices %d and %d", m_lscm->boundaryLoopCount(), m_lscm->pins()[0],
                     m_lscm->pins()[1]);

  solvers::SystemSolverOptions options = m_lscm->solver().options();
  int route = options.route == solvers::LeastSquaresRoute::Cgls ? 1 : 0;
  bool rebuild = ImGui::Combo("route", &route, kRoutes);
  // CGLS takes Jacobi or nothing: multigrid coarsens the normal matrix CGLS never forms.
  int preconditioner = int(options.preconditioner);
  if (route == 1 && options.preconditioner == solvers::SystemPreconditioner::Multigrid) preconditioner = 0;
  if (ImGui::Combo("preconditioner", &preconditioner, route == 1 ? kCglsPreconditioners : kPreconditioners)) rebuild = true;
  options.preconditioner = solvers::SystemPreconditioner(preconditioner);
  float tol = options.cg.tolerance;
  if (ImGui::SliderFloat("tolerance", &tol, 1e-9f, 1e-2f, "%.1e", ImGuiSliderFlags_Logarithmic) && tol > 0 && tol < 1) {
    m_lscm->solver().setTolerance(tol, *options.cg.maxIterations);
    m_dirty = true;
  }
  if (rebuild) {
    options.route = route == 1 ? solvers::LeastSquaresRoute::Cgls : solvers::LeastSquaresRoute::NormalEquations;
    geometry::LscmOptions o;
    o.pins = m_lscm->pins();
    o.pinUv = m_lscm->pinUv();
    o.solver = options;
    try {
      m_lscm = std::make_unique<geometry::Lscm>(m_mesh, o, "lscm");
      m_setupMs = m_lscm->buildMs() + m_lscm->solver().setup().uploadMs + m_lscm->solver().setup().multigridMs;
      m_dirty = true;
      m_status.clear();
    } catch (const std::exception& e) {
      m_status = e.what();
    }
  }
  if (!m_status.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
    wrappedText(m_status);
    ImGui::PopStyleColor();
  }

  ImGui::Separator();
  const solvers::SystemSolverSetup& setup = m_lscm->solver().setup();
  ImGui::TextWrapped("set-up: rows %.1f ms, A^T A %.1f ms, upload %.1f ms", m_lscm->buildMs(), setup.normalMatrixMs,
                     setup.uploadMs);
  if (m_solves > 0) {
    ImGui::TextWrapped("solve %d: %d iterations, %s, residual %.2e, %.1f ms", m_solves, m_last.iterations,
                       solvers::outcomeName(m_last.outcome), m_last.relativeResidual, m_lastSolveMs);
    std::vector<float> logRes;
    for (double r : m_last.residualHistory) logRes.push_back(float(std::log10(std::max(r, 1e-30))));
    if (!logRes.empty())
      ImGui::PlotLines("log10 residual\n(per check)", logRes.data(), int(logRes.size()), 0, nullptr, FLT_MAX, FLT_MAX,
                       ImVec2(0, 60));
    ImGui::Text("flipped triangles: %zu", m_quality.flippedTriangles);
    ImGui::TextWrapped("angle distortion: mean %.3f deg, max %.2f deg", m_quality.angleDistortionMean,
                       m_quality.angleDistortionMax);
    ImGui::TextWrapped("area distortion |ln ratio|: mean %.3f, max %.2f", m_quality.areaDistortionMean,
                       m_quality.areaDistortionMax);
  }
  if (flowButton("reset pins (R)", true)) restart();
  if (flowButton("reframe")) m_reframe = true;
  if (flowButton("screenshot (S)")) controls.screenshotRequested = true;
  ImGui::Checkbox("wireframe", &m_view.wireframe);
  if (!controls.lastScreenshot.empty()) wrappedText("saved " + controls.lastScreenshot);
  if (section("backend", false)) backendPanel();
  const bool profiling = stream::Runtime::current().profiler().enabled();
  if (section("GPU time per pass", profiling)) profilerPanel();
}

void ParamDemo::report(nlohmann::json& out) const {
  const solvers::SystemSolver& solver = m_lscm->solver();
  const solvers::SystemSolverSetup& setup = solver.setup();
  out["size"] = {m_lscm->uv().layout().width(), m_lscm->uv().layout().height()};
  out["settings"] = nlohmann::json(m_table.toJson());
  out["mesh"] = m_mesh.name;
  out["vertices"] = m_mesh.vertexCount();
  out["faces"] = m_mesh.triangleCount();
  out["boundary_loops"] = m_lscm->boundaryLoopCount();
  out["pins"] = {m_lscm->pins()[0], m_lscm->pins()[1]};
  out["pin_uv"] = {m_lscm->pinUv()[0], m_lscm->pinUv()[1], m_lscm->pinUv()[2], m_lscm->pinUv()[3]};
  out["unknowns"] = m_lscm->system().unknowns();
  out["rows"] = m_lscm->system().rowCount();
  out["route"] = solvers::leastSquaresRouteName(solver.options().route);
  out["format"] = solvers::systemMatrixFormatName(solver.format());
  out["preconditioner"] = solvers::systemPreconditionerName(solver.preconditioner());
  out["tolerance"] = solver.options().cg.tolerance;
  out["matrix_nonzeros"] = setup.matrixNonZeros;
  out["build_rows_ms"] = m_lscm->buildMs();
  out["normal_matrix_ms"] = setup.normalMatrixMs;
  out["upload_ms"] = setup.uploadMs;
  out["multigrid_ms"] = setup.multigridMs;
  out["multigrid_levels"] = setup.multigridLevels;
  if (setup.multigridLevels > 0) {
    // The multigrid set-up by phase (solvers/multigrid/AggregationMultigrid.h), milliseconds.
    const solvers::AggregationMultigridStats& mg = setup.multigrid;
    out["multigrid_phases_ms"] = {{"aggregation", mg.hierarchy.aggregationMs},
                                  {"prolongators", mg.hierarchy.prolongatorMs},
                                  {"galerkin", mg.hierarchy.galerkinMs},
                                  {"spectral_radii", mg.hierarchy.spectralRadiusMs},
                                  {"block_conversion", mg.hierarchy.conversionMs},
                                  {"gpu_levels", mg.levelsMs},
                                  {"transfers", mg.transfersMs},
                                  {"coarsest_inverse", mg.coarsestMs}};
    out["multigrid_unknowns"] = mg.unknowns;
    out["multigrid_nonzeros"] = mg.nonZeros;
  }
  out["solves"] = m_solves;
  out["solve_ms"] = m_lastSolveMs;
  out["iterations"] = m_last.iterations;
  out["outcome"] = solvers::outcomeName(m_last.outcome);
  out["relative_residual"] = m_last.relativeResidual;
  // ||b - A x||/||b|| of the map where a convergence formed it (in double after defect
  // correction), null where none did.
  out["true_relative_residual"] =
      std::isfinite(m_last.trueRelativeResidual) ? nlohmann::json(m_last.trueRelativeResidual) : nlohmann::json();
  out["mesh_notes"] = m_lscm->notes();
  out["message"] = m_last.message;
  out["residual_history"] = m_last.residualHistory;
  out["checked_at"] = m_last.checkedAt;
  out["flipped_triangles"] = m_quality.flippedTriangles;
  out["angle_distortion_mean_deg"] = m_quality.angleDistortionMean;
  out["angle_distortion_max_deg"] = m_quality.angleDistortionMax;
  out["area_distortion_mean"] = m_quality.areaDistortionMean;
  out["area_distortion_max"] = std::isfinite(m_quality.areaDistortionMax) ? nlohmann::json(m_quality.areaDistortionMax)
                                                                           : nlohmann::json("inf");
  out["uv_bounds"] = m_quality.uvBounds;
}

}  // namespace texstream::app
