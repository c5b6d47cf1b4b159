#include "SmoothDemo.h"

#include "NamedCombo.h"
#include "RunRatePanel.h"
#include "SolvePanel.h"

#include <texstream/geometry/MeshIo.h>
#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>
#include <texstream/text/FloatChars.h>

#include <glad/gl.h>
#include <imgui.h>

#ifdef __EMSCRIPTEN__
#include "Download.h"
#endif

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>

namespace texstream::app {

namespace {

const int kVertexChoices[] = {1000, 10000, 37000, 100000, 300000, 1000000};

/// A float as the decimal it was typed as (1e-05, not 9.999999747378752e-06).
double shortest(float f) { return std::strtod(text::shortestText(f).c_str(), nullptr); }

double boundingRadius(const geometry::Mesh& m) {
  double c[3] = {0, 0, 0};
  const std::size_t n = m.vertexCount();
  for (std::size_t v = 0; v < n; ++v)
    for (int k = 0; k < 3; ++k) c[k] += m.positions[3 * v + std::size_t(k)] / double(n);
  double r = 0;
  for (std::size_t v = 0; v < n; ++v) {
    double d = 0;
    for (int k = 0; k < 3; ++k) d += std::pow(m.positions[3 * v + std::size_t(k)] - c[k], 2);
    r = std::max(r, std::sqrt(d));
  }
  return r > 0 ? r : 1.0;
}

}  // namespace

MeshSpec parseMeshSpec(const std::string& option, const std::string& text) {
  MeshSpec spec;
  const std::string prefix = "builtin:";
  if (text.rfind(prefix, 0) != 0) {
    if (text.empty()) throw UsageError(option + ": invalid value \"\": expected a mesh file or builtin:NAME");
    spec.name = text;
    return spec;
  }
  spec.builtin = true;
  std::string rest = text.substr(prefix.size());
  const std::size_t colon = rest.find(':');
  if (colon != std::string::npos) {
    spec.vertices = std::size_t(parseInteger(option, rest.substr(colon + 1), 4, 16'000'000));
    rest = rest.substr(0, colon);
  }
  const auto& names = geometry::builtinMeshNames();
  if (std::find(names.begin(), names.end(), rest) == names.end()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw UsageError(option + ": invalid value \"" + text + "\": unknown built-in mesh \"" + rest + "\" (known: " + list +
                     ")");
  }
  spec.name = rest;
  return spec;
}

SmoothDemo::SmoothDemo(const RunContext& ctx, SmoothSettings settings)
    : m_settings(std::move(settings)) {
  (void)ctx;
  const MeshSpec spec = parseMeshSpec("--mesh", m_settings.mesh);
  m_noise = m_settings.noise.value_or(spec.builtin ? 0.3 : 0.0);
  setMesh(spec);
  if (m_settings.lambdaDt) m_lambdaDt = *m_settings.lambdaDt;
  std::strncpy(m_pathField, spec.builtin ? "" : spec.name.c_str(), sizeof m_pathField - 1);
  m_builtinVertices = int(spec.vertices);
}

SmoothDemo::~SmoothDemo() {
  if (!m_settings.result || !m_flow) return;
  try {
    *m_settings.result = m_flow->mesh();
  } catch (const std::exception& e) {
    std::cerr << "texstream-smooth: error: reading the smoothed mesh back: " << e.what() << "\n";
  }
}

std::unique_ptr<geometry::CurvatureFlow> SmoothDemo::makeFlow(const geometry::Mesh& mesh) const {
  geometry::CurvatureFlowOptions o;
  o.fixBoundary = m_settings.fixBoundary;
  o.rescale = m_settings.rescale;
  o.cgTolerance = m_settings.cgTolerance;
  o.cgMaxIterations = m_settings.cgMaxIterations;
  o.jacobi = m_settings.jacobi;
  o.flow = m_settings.flow;
  o.precision = m_settings.precision;
  o.innerTolerance = m_settings.innerTolerance;
  return std::make_unique<geometry::CurvatureFlow>(mesh, o, "smooth");
}

void SmoothDemo::setMesh(const MeshSpec& spec) {
  geometry::Mesh clean = spec.builtin ? geometry::builtinMesh(spec.name, spec.vertices, 0.0) : geometry::readMesh(spec.name);
  geometry::Mesh initial = clean;
  geometry::addNormalNoise(initial, m_noise, m_settings.seed);
  std::unique_ptr<geometry::CurvatureFlow> flow = makeFlow(initial);
  // Everything worked: commit.
  for (const std::string& note : clean.notes) std::cerr << "texstream-smooth: " << clean.name << ": " << note << "\n";
  m_flow = std::move(flow);
  m_clean = std::move(clean);
  m_initial = std::move(initial);
  m_spec = spec;
  m_edgeLength = geometry::meanEdgeLength(m_clean);
  m_lambdaDt = m_edgeLength * m_edgeLength;
  const double r = boundingRadius(m_clean);
  m_curvatureReference = 1.0 / r;
  m_camera.frame(glm::vec3(0.0f), float(r));
  m_shadingDirty = true;
  measureReference();
  const geometry::TriangleTopology& topo = m_flow->topology();
  std::cerr << "texstream-smooth: " << m_initial.name << ": " << m_initial.vertexCount() << " vertices, "
            << m_initial.triangleCount() << " triangles, " << topo.boundaryVertexCount() << " boundary vertices, "
            << m_flow->measure().degenerateTriangles << " degenerate triangles\n";
}

void SmoothDemo::applyNoise() {
  m_initial = m_clean;
  geometry::addNormalNoise(m_initial, m_noise, m_settings.seed);
  m_flow->setPositions(m_initial.positions);
  m_shadingDirty = true;
  measureReference();
}

void SmoothDemo::measureHealth(stream::Scalar& out) { m_flow->area(out); }

void SmoothDemo::measureReference() { m_referenceArea = m_flow->measure().area; }

HealthMeasure SmoothDemo::health() const {
  HealthMeasure h;
  h.quantity = "mesh area";
  h.limit = std::numeric_limits<double>::infinity();
  if (m_referenceArea > 0) {
    h.limit = kRunawayFactor * m_referenceArea;
    h.limitText = "1e4 x the initial area";
    h.floor = kCollapseFactor * m_referenceArea;
    h.floorText = "1e-6 x the initial area";
  }
  return h;
}

void SmoothDemo::restart() {
  m_flow->setPositions(m_initial.positions);
  m_shadingDirty = true;
  measureReference();
}

void SmoothDemo::recordStep(const solvers::SolverStatus& status, double ms) {
  const geometry::FlowMeasures m = m_flow->measure();
  m_iterations.push_back(status.iterations);
  m_residuals.push_back(status.relativeResidual);
  m_ms.push_back(ms);
  m_area.push_back(m.area);
  m_volume.push_back(m.volume);
  m_degenerate.push_back(m.degenerateTriangles);
  m_outcomes.push_back(solvers::outcomeName(status.outcome));
  m_innerIterations.push_back(m_flow->lastInnerIterations());
  if (!status.converged())
    std::cerr << "texstream-smooth: step " << m_flow->steps() << ": " << status.message << "\n";
}

void SmoothDemo::step() {
  for (int k = 0; k < m_stepsPerFrame; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    if (m_settings.dsi.enabled && !(m_dsi && m_dsi->matches(*m_flow, m_settings.dsi)))
      m_dsi = std::make_unique<DsiMethod>(*m_flow, m_settings.dsi, m_flow->options().cgTolerance,
                                          m_flow->options().cgMaxIterations);
    const solvers::SolverStatus status =
        m_settings.dsi.enabled ? m_dsi->step(*m_flow) : m_flow->step(float(m_lambdaDt));
    glFinish();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    recordStep(status, ms);
  }
  m_shadingDirty = true;
}

void SmoothDemo::render(int width, int height) {
  if (m_shadingDirty) {
    m_flow->updateShading();
    m_shadingDirty = false;
  }
  glClearColor(0.10f, 0.11f, 0.13f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  m_view.viewProjection = m_camera.projection(float(width) / float(std::max(height, 1))) * m_camera.view();
  m_view.eye = m_camera.eye();
  m_renderer.draw(*m_flow, m_view);
}

void SmoothDemo::mouse(const MouseInput& in) {
  if (in.leftDown || in.rightDown) m_camera.rotate(in.dx, in.dy);
  if (in.scroll != 0) m_camera.zoom(in.scroll);
}

FileResult SmoothDemo::openFile(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  try {
    geometry::meshFormatFromPath(path);
    setMesh(MeshSpec{false, path, 0});
  } catch (const std::exception& e) {
    // Reader messages start with the path (the page's is a folder of its file system: the
    // file's name says more); GL limits name the texture, not the file.
    std::string what = e.what();
    for (std::size_t at = what.find(path); !path.empty() && at != std::string::npos; at = what.find(path, at + name.size()))
      what.replace(at, path.size(), name);
    m_status = (what.find(name) != std::string::npos ? what : name + ": " + what) + " (the mesh stays " +
               std::filesystem::path(m_initial.name).filename().string() + ")";
    m_statusIsError = true;
    return {false, m_status, ""};
  }
  std::strncpy(m_pathField, path.c_str(), sizeof m_pathField - 1);
  m_status = "loaded " + name + ": " + std::to_string(m_initial.vertexCount()) + " vertices, " +
             std::to_string(m_initial.triangleCount()) + " triangles";
  m_statusIsError = false;
  return {true, m_status, path};
}

FileResult SmoothDemo::saveResult(const std::string& folder) {
  std::filesystem::create_directories(folder);
  const std::string stem = m_spec.builtin ? m_spec.name : std::filesystem::path(m_spec.name).stem().string();
  const std::string path = folder + "/" + stem + "-smoothed.obj";
  exportObj(path);
  if (!m_statusIsError) m_status += " (" + std::to_string(m_flow->steps()) + " steps of the flow)";
  return {!m_statusIsError, m_status, m_statusIsError ? "" : path};
}

void SmoothDemo::exportObj(const std::string& path) {
  try {
    geometry::writeObj(path, m_flow->mesh());
    m_status = "wrote " + path;
    m_statusIsError = false;
  } catch (const std::exception& e) {
    m_status = e.what();
    m_statusIsError = true;
  }
}

void SmoothDemo::gui(ShellControls& controls) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSizeConstraints(ImVec2(440, 0), ImVec2(440, std::max(100.0f, ImGui::GetIO().DisplaySize.y - 20)));
  ImGui::Begin("texstream-smooth", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::PushItemWidth(220);
  ImGui::TextWrapped("Mean curvature flow, Bolz et al. 2003 s3: every matrix entry recomputed on the GPU each step, "
                     "CG on the segment matrix. Drag: orbit. Scroll: zoom.");
  ImGui::Separator();

  // ---- Mesh ---------------------------------------------------------------------
  geometry::CurvatureFlow& flow = *m_flow;
  const geometry::TriangleTopology& topo = flow.topology();
  ImGui::Text("%s: %zu vertices, %zu triangles", m_initial.name.c_str(), m_initial.vertexCount(), m_initial.triangleCount());
  ImGui::Text("%zu boundary, %zu held vertices, max valence %d", topo.boundaryVertexCount(), flow.heldVertexCount(),
              topo.maxValence());
  bool reload = false;
  MeshSpec next = m_spec;
  const std::string current = m_spec.builtin ? m_spec.name : std::string("(file)");
  if (ImGui::BeginCombo("built-in mesh", current.c_str())) {
    for (const std::string& name : geometry::builtinMeshNames()) {
      if (ImGui::Selectable(name.c_str(), m_spec.builtin && m_spec.name == name)) {
        next = MeshSpec{true, name, std::size_t(m_builtinVertices)};
        reload = true;
      }
    }
    ImGui::EndCombo();
  }
  const std::string verticesLabel = std::to_string(m_builtinVertices);
  if (ImGui::BeginCombo("vertices", verticesLabel.c_str())) {
    for (int v : kVertexChoices) {
      if (ImGui::Selectable(std::to_string(v).c_str(), v == m_builtinVertices)) {
        m_builtinVertices = v;
        if (m_spec.builtin) {
          next = MeshSpec{true, m_spec.name, std::size_t(v)};
          reload = true;
        }
      }
    }
    ImGui::EndCombo();
  }
  ImGui::InputText("##path", m_pathField, sizeof m_pathField);
  ImGui::SameLine();
  if (ImGui::Button("load file") && m_pathField[0] != 0) {
    openFile(m_pathField);  // as a dropped file: the message below says what happened
    ImGui::PopItemWidth();
    ImGui::End();
    return;  // `flow` may be gone; the next frame shows the new one
  }
  if (reload) {
    try {
      setMesh(next);
      m_status = "loaded " + m_initial.name;
      m_statusIsError = false;
    } catch (const std::exception& e) {
      m_status = e.what();  // the previous mesh stays
      m_statusIsError = true;
    }
    ImGui::PopItemWidth();
    ImGui::End();
    return;  // `flow` may be gone; the next frame shows the new one
  }
  if (!m_status.empty()) {
    if (m_statusIsError) ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "%s", m_status.c_str());
    else ImGui::TextWrapped("%s", m_status.c_str());
  }

  // ---- Noise ----------------------------------------------------------------------
  float noise = float(m_noise);
  if (ImGui::SliderFloat("noise (edge lengths)", &noise, 0.0f, 2.0f, "%.2f")) m_noise = std::max(0.0f, noise);
  ImGui::SameLine();
  if (ImGui::Button("re-noise")) {
    ++m_settings.seed;
    applyNoise();
  }

  // ---- Flow -----------------------------------------------------------------------
  ImGui::Separator();
  dsiPanel(m_settings.dsi);
  float dtScale = float(m_lambdaDt / (m_edgeLength * m_edgeLength));
  if (ImGui::SliderFloat("lambda dt / h^2", &dtScale, 1e-3f, 1e3f, "%.3g", ImGuiSliderFlags_Logarithmic) && dtScale > 0)
    m_lambdaDt = double(dtScale) * m_edgeLength * m_edgeLength;
  ImGui::Text("lambda dt = %.4g (h = mean edge length %.4g)", m_lambdaDt, m_edgeLength);
  ImGui::SliderInt("steps per frame", &m_stepsPerFrame, 1, 20);
  bool fix = flow.options().fixBoundary;
  if (topo.boundaryVertexCount() > 0) {
    if (ImGui::Checkbox("fixed boundary", &fix)) {
      if (fix && flow.options().rescale != geometry::Rescale::None) {
        flow.setRescale(geometry::Rescale::None);
        m_settings.rescale = geometry::Rescale::None;
      }
      flow.setFixBoundary(fix);
      m_settings.fixBoundary = fix;
    }
  } else {
    ImGui::TextDisabled("closed mesh: no boundary");
  }
  geometry::Flow flowKind = flow.options().flow;
  if (namedCombo("flow", flowKind, geometry::flowNames())) {
    flow.setFlow(flowKind);
    m_settings.flow = flowKind;
  }
  geometry::Rescale rescale = flow.options().rescale;
  const bool canRescale = !(flow.options().fixBoundary && topo.boundaryVertexCount() > 0);
  if (!canRescale) ImGui::BeginDisabled();
  if (namedCombo("rescale", rescale, geometry::rescaleNames())) {
    flow.setRescale(rescale);
    m_settings.rescale = rescale;
  }
  if (!canRescale) {
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled("(free the boundary)");
  }

  if (ImGui::TreeNodeEx("conjugate gradients", ImGuiTreeNodeFlags_DefaultOpen)) {
    float tol = flow.options().cgTolerance;
    int cap = flow.options().cgMaxIterations;
    bool changed = ImGui::SliderFloat("tolerance", &tol, 1e-7f, 1e-2f, "%.1e", ImGuiSliderFlags_Logarithmic);
    changed |= ImGui::SliderInt("iteration cap", &cap, 1, 5000, "%d", ImGuiSliderFlags_Logarithmic);
    if (changed && tol > 0 && tol < 1 && cap >= 1) {
      flow.setCg(tol, cap);
      m_settings.cgTolerance = tol;
      m_settings.cgMaxIterations = cap;
    }
    bool jacobi = flow.options().jacobi;
    if (ImGui::Checkbox("Jacobi preconditioner", &jacobi)) {
      flow.setJacobi(jacobi);
      m_settings.jacobi = jacobi;
    }
    if (!m_iterations.empty()) lastSolvePanel(flow.lastSolve(), m_iterations);
    ImGui::TreePop();
  }

  backendPanel();

  if (ImGui::Button(controls.paused ? "play" : "pause")) controls.paused = !controls.paused;
  ImGui::SameLine();
  if (ImGui::Button("step")) {
    step();
    ++controls.steps;
  }
  ImGui::SameLine();
  if (ImGui::Button("reset")) restart();
  ImGui::SameLine();
  if (ImGui::Button("screenshot")) controls.screenshotRequested = true;
  if (!controls.lastScreenshot.empty()) ImGui::Text("saved %s", controls.lastScreenshot.c_str());
  ImGui::InputText("##export", m_exportField, sizeof m_exportField);
  ImGui::SameLine();
  if (ImGui::Button("export OBJ") && m_exportField[0] != 0) {
    exportObj(m_exportField);
#ifdef __EMSCRIPTEN__
    if (!m_statusIsError) offerDownload(m_exportField);  // the page's in-memory file, as a download
#endif
  }

  // ---- View -----------------------------------------------------------------------
  ImGui::Separator();
  ImGui::Checkbox("wireframe", &m_view.wireframe);
  ImGui::SameLine();
  ImGui::Checkbox("colour by mean curvature", &m_view.colorByCurvature);
  static float range = 4.0f;  // |H| R mapped to full colour
  if (ImGui::SliderFloat("curvature range (1/R)", &range, 0.5f, 100.0f, "%.1f", ImGuiSliderFlags_Logarithmic))
    range = std::max(range, 0.01f);
  m_view.curvatureScale = float(1.0 / (double(range) * m_curvatureReference));

  // ---- Numbers ----------------------------------------------------------------------
  ImGui::Separator();
  ImGui::Text("step %lld", flow.steps());
  ImGui::SameLine();
  runRatePanel(controls);
  if (!m_area.empty()) {
    ImGui::Text("area %.6g   volume %.6g   degenerate triangles %zu", m_area.back(), m_volume.back(), m_degenerate.back());
    const std::vector<float> ms = plotTail(m_ms);
    ImGui::PlotLines("ms per step", ms.data(), int(ms.size()), 0, nullptr, 0.0f, FLT_MAX, ImVec2(0, 40));
  }
  const bool profiling = stream::Runtime::current().profiler().enabled();
  if (ImGui::CollapsingHeader("GPU time per pass", profiling ? ImGuiTreeNodeFlags_DefaultOpen : 0)) profilerPanel();
  ImGui::PopItemWidth();
  ImGui::End();
}

void SmoothDemo::report(nlohmann::json& out) const {
  const geometry::CurvatureFlow& flow = *m_flow;
  out["size"] = {flow.positions().layout().width(), flow.positions().layout().height()};
  out["mesh"] = m_initial.name;
  out["vertices"] = m_initial.vertexCount();
  out["faces"] = m_initial.triangleCount();
  out["boundary_vertices"] = flow.topology().boundaryVertexCount();
  out["held_vertices"] = flow.heldVertexCount();
  out["fixed_boundary"] = flow.options().fixBoundary;
  out["rescale"] = geometry::rescaleName(flow.options().rescale);
  out["noise"] = m_noise;
  out["lambda_dt"] = m_lambdaDt;
  out["mean_edge_length"] = m_edgeLength;
  out["cg_tolerance"] = shortest(flow.options().cgTolerance);
  out["cg_max_iterations"] = flow.options().cgMaxIterations;
  out["preconditioner"] = flow.options().jacobi ? "jacobi" : "none";
  out["flow"] = stream::nameOf(geometry::flowNames(), flow.options().flow);
  out["precision"] = stream::nameOf(solvers::precisionNames(), flow.options().precision);
  if (flow.options().precision == solvers::Precision::Mixed) {
    out["inner_tolerance"] = shortest(flow.options().innerTolerance);
    out["inner_iterations"] = m_innerIterations;
  }
  out["initial_area"] = flow.reference().area;
  out["initial_volume"] = flow.reference().volume;
  out["cg_iterations"] = m_iterations;
  out["residual"] = m_residuals;
  out["ms"] = m_ms;
  out["area"] = m_area;
  out["volume"] = m_volume;
  out["degenerate_triangles"] = m_degenerate;
  out["cg_outcomes"] = m_outcomes;
  out["method"] = m_settings.dsi.enabled ? "dsi" : "curvature";
  if (m_settings.dsi.enabled && m_dsi) m_dsi->report(out);
  out["camera"] = {{"yaw", m_camera.yaw}, {"pitch", m_camera.pitch}, {"distance", m_camera.distance}};
}

}  // namespace texstream::app
