#include "SmoothDemo.h"

#include "MainGuard.h"
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
#include <cstdio>
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

/// "3, 5, 8" (the last few of a long list: "... 41, 42").
std::string stepList(const std::vector<long long>& steps) {
  constexpr std::size_t kShown = 8;
  std::string out = steps.size() > kShown ? "... " : "";
  for (std::size_t i = steps.size() > kShown ? steps.size() - kShown : 0; i < steps.size(); ++i)
    out += std::to_string(steps[i]) + (i + 1 < steps.size() ? ", " : "");
  return out;
}

}  // namespace

SmoothDemo::SmoothDemo(const RunContext& ctx, SmoothSettings settings) : SettingsDemo(std::move(settings)) {
  (void)ctx;
  start();
}

void SmoothDemo::start() {
  const MeshSpec spec = parseMeshSpec("--mesh", m_settings.mesh);
  setMesh(spec, m_settings.noise >= 0 ? m_settings.noise : (spec.builtin ? 0.3 : 0.0));
  if (m_settings.lambdaDt >= 0) m_lambdaDt = m_settings.lambdaDt;
  std::strncpy(m_pathField, spec.builtin ? "" : spec.name.c_str(), sizeof m_pathField - 1);
  m_builtinVertices = int(spec.vertices);
}

void SmoothDemo::syncSettings() {
  m_settings.noise = m_noise;
  m_settings.lambdaDt = m_lambdaDt;
}

SmoothSettings SmoothDemo::presetBase() const {
  SmoothSettings base;
  base.result = m_settings.result;
  return base;
}

void SmoothDemo::presetLoaded(const std::string& source) {
  m_status = "loaded " + source;
  m_statusIsError = false;
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
  o.cg.tolerance = m_settings.cgTolerance;
  o.cg.maxIterations = m_settings.cgMaxIterations;
  o.jacobi = m_settings.jacobi;
  o.flow = m_settings.flow;
  o.precision = m_settings.precision;
  o.innerTolerance = m_settings.innerTolerance;
  return std::make_unique<geometry::CurvatureFlow>(mesh, o, "smooth");
}

void SmoothDemo::setMesh(const MeshSpec& spec, double noise) {
  ReadingInput reading("mesh", spec.name);
  geometry::Mesh clean = spec.builtin ? geometry::builtinMesh(spec.name, spec.vertices, 0.0) : geometry::readMesh(spec.name);
  geometry::Mesh initial = clean;
  geometry::addNormalNoise(initial, noise, std::uint64_t(m_settings.seed));
  std::unique_ptr<geometry::CurvatureFlow> flow = makeFlow(initial);
  // Everything worked: commit.
  for (const std::string& note : clean.notes) std::cerr << "texstream-smooth: " << clean.name << ": " << note << "\n";
  for (const std::string& note : flow->notes()) std::cerr << "texstream-smooth: " << clean.name << ": " << note << "\n";
  m_noise = noise;
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
  geometry::addNormalNoise(m_initial, m_noise, std::uint64_t(m_settings.seed));
  m_flow->setPositions(m_initial.positions);
  m_shadingDirty = true;
  measureReference();
}

void SmoothDemo::measureReference() { m_referenceArea = m_flow->measure().area; }

HealthMeasure SmoothDemo::measureHealth(stream::Scalar& out) {
  m_flow->area(out);
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
  m_trueResiduals.push_back(std::isfinite(status.trueRelativeResidual) ? nlohmann::json(status.trueRelativeResidual)
                                                                       : nlohmann::json());
  if (!m_settings.dsi.enabled && m_flow->lastStepMixed()) m_mixedSteps.push_back((long long)m_iterations.size());
  m_lastAdvice.clear();
  if (status.converged()) return;
  const StepSettings settings = currentStepSettings();
  const long long stepNumber = m_flow->steps();
  std::vector<std::string> remedies;
  for (const StepRemedy& r : stepRemedies(settings, status)) remedies.push_back(r.text(true));
  // The full advice once; while the remedies stay the same, a line per step.
  const bool repeated = !m_unconverged.empty() && m_unconverged.back()["remedies"] == nlohmann::json(remedies);
  const std::string advice = stepAdvice(stepNumber, settings, status, true);
  std::cerr << "texstream-smooth: " << status.message << "\n";
  if (!repeated) std::cerr << "texstream-smooth: " << advice << "\n";
  m_lastAdvice = stepAdvice(stepNumber, settings, status, false);
  m_unconverged.push_back({{"step", stepNumber},
                           {"outcome", solvers::outcomeName(status.outcome)},
                           {"relative_residual", status.relativeResidual},
                           {"iterations", status.iterations},
                           {"remedies", remedies},
                           {"advice", advice}});
}

StepSettings SmoothDemo::currentStepSettings() const {
  StepSettings s;
  s.dsi = m_settings.dsi.enabled;
  s.flow = m_flow->options().flow;
  // A step that auto solved again in mixed precision gets mixed precision's advice.
  s.precision = !s.dsi && m_flow->lastStepMixed() ? solvers::Precision::Mixed : m_flow->options().precision;
  s.jacobi = m_flow->options().jacobi;
  s.lambdaDt = m_lambdaDt;
  s.edgeLengthSquared = m_edgeLength * m_edgeLength;
  s.cgTolerance = m_flow->options().cg.tolerance;
  s.cgMaxIterations = *m_flow->options().cg.maxIterations;
  s.dsiWeight = m_settings.dsi.dataWeight;
  return s;
}

void SmoothDemo::step() {
  for (int k = 0; k < m_settings.stepsPerFrame; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    if (m_settings.dsi.enabled && !(m_dsi && m_dsi->matches(*m_flow, m_settings.dsi)))
      m_dsi = std::make_unique<DsiMethod>(*m_flow, m_settings.dsi, m_flow->options().cg.tolerance,
                                          *m_flow->options().cg.maxIterations);
    const solvers::SolverStatus status =
        m_settings.dsi.enabled ? m_dsi->step(*m_flow) : m_flow->step(m_lambdaDt);
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
  m_view.wireframe = m_settings.wireframe;
  m_view.colorByCurvature = m_settings.curvatureColors;
  m_view.curvatureScale = float(1.0 / (double(std::max(m_settings.curvatureRange, 0.01f)) * m_curvatureReference));
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
    // A file takes --noise where given, else none (as --mesh PATH does).
    setMesh(MeshSpec{false, path, 0}, m_settings.noise >= 0 ? m_settings.noise : 0.0);
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
  m_settings.mesh = path;
  m_settings.lambdaDt = -1;  // the new mesh's own scale
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
  wrappedText("Mean curvature flow, Bolz et al. 2003 s3: every matrix entry recomputed on the GPU each step, "
              "CG on the segment matrix. Drag: orbit. Scroll: zoom. Drop a mesh file on the window to load it.");
  ImGui::Separator();

  // ---- Mesh ---------------------------------------------------------------------
  geometry::CurvatureFlow& flow = *m_flow;
  const geometry::TriangleTopology& topo = flow.topology();
  if (section("mesh")) {
    wrappedText(m_initial.name + ": " + std::to_string(m_initial.vertexCount()) + " vertices, " +
                std::to_string(m_initial.triangleCount()) + " triangles");
    wrappedText(std::to_string(topo.boundaryVertexCount()) + " boundary, " + std::to_string(flow.heldVertexCount()) +
                " held vertices, max valence " + std::to_string(topo.maxValence()));
    bool reload = false;
    MeshSpec next = m_spec;
    const std::string current = m_spec.builtin ? m_spec.name : std::string("(file)");
    checkComboPreview("built-in mesh", current.c_str());
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
    ImGui::InputText("mesh file", m_pathField, sizeof m_pathField);
    if (ImGui::Button("load file") && m_pathField[0] != 0) {
      openFile(m_pathField);  // as a dropped file: the message below says what happened
      return;  // `flow` may be gone; the next frame shows the new one
    }
    if (reload) {
      try {
        setMesh(next, m_settings.noise >= 0 ? m_settings.noise : 0.3);
        m_settings.mesh = "builtin:" + next.name + ":" + std::to_string(next.vertices);
        m_settings.lambdaDt = -1;
        m_status = "loaded " + m_initial.name;
        m_statusIsError = false;
      } catch (const std::exception& e) {
        m_status = e.what();  // the previous mesh stays
        m_statusIsError = true;
      }
      return;  // `flow` may be gone; the next frame shows the new one
    }
    if (!m_status.empty()) {
      if (m_statusIsError) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
      wrappedText(m_status);
      if (m_statusIsError) ImGui::PopStyleColor();
    }

    // ---- Noise ------------------------------------------------------------------
    m_settings.noise = m_noise;
    if (m_table.widget("noise")) m_noise = std::max(0.0, m_settings.noise);
    if (ImGui::Button("re-noise")) {
      ++m_settings.seed;
      applyNoise();
    }
  }

  // ---- Flow -----------------------------------------------------------------------
  if (section("flow")) {
    m_table.widget("method");
    if (m_settings.dsi.enabled) {
      m_table.widget("dsi-weight");
      ImGui::TextDisabled("each step: min roughness + weight |x - x_now|^2");
    }
    float dtScale = float(m_lambdaDt / (m_edgeLength * m_edgeLength));
    if (ImGui::SliderFloat("lambda dt / h^2", &dtScale, 1e-3f, 1e3f, "%.3g", ImGuiSliderFlags_Logarithmic) && dtScale > 0) {
      m_lambdaDt = double(dtScale) * m_edgeLength * m_edgeLength;
      m_settings.lambdaDt = m_lambdaDt;
    }
    checkLastItem("lambda dt / h^2");
    char line[160];
    std::snprintf(line, sizeof line, "lambda dt = %.4g (h = mean edge length %.4g)", m_lambdaDt, m_edgeLength);
    wrappedText(line);
    m_table.widget("steps-per-frame");
    if (topo.boundaryVertexCount() > 0) {
      if (m_table.widget("free-boundary")) {
        if (m_settings.fixBoundary && m_settings.rescale != geometry::Rescale::None) {
          flow.setRescale(geometry::Rescale::None);
          m_settings.rescale = geometry::Rescale::None;
        }
        flow.setFixBoundary(m_settings.fixBoundary);
      }
    } else {
      ImGui::TextDisabled("closed mesh: no boundary");
    }
    if (m_table.widget("flow")) flow.setFlow(m_settings.flow);
    const bool canRescale = !(flow.options().fixBoundary && topo.boundaryVertexCount() > 0);
    if (!canRescale) ImGui::BeginDisabled();
    if (m_table.widget("rescale")) flow.setRescale(m_settings.rescale);
    if (!canRescale) {
      ImGui::EndDisabled();
      ImGui::TextDisabled("(free the boundary to rescale)");
    }
  }

  if (section("conjugate gradients")) {
    const bool tol = m_table.widget("tolerance");
    const bool cap = m_table.widget("max-iterations");
    if (tol || cap) flow.setCg(m_settings.cgTolerance, m_settings.cgMaxIterations);
    if (m_table.widget("precond")) flow.setJacobi(m_settings.jacobi);
    bool precision = m_table.widget("precision");
    if (m_settings.precision != solvers::Precision::Single) precision |= m_table.widget("inner-tol");
    if (precision) flow.setPrecision(m_settings.precision, m_settings.innerTolerance);
    if (!m_iterations.empty()) lastSolvePanel(flow.lastSolve(), m_iterations);
    if (!m_lastAdvice.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.3f, 1.0f));
      wrappedText(m_lastAdvice);
      ImGui::PopStyleColor();
    }
    if (!m_mixedSteps.empty() && m_settings.precision == solvers::Precision::Auto)
      wrappedText(std::to_string(m_mixedSteps.size()) + " of " + std::to_string(m_iterations.size()) +
                  " steps needed mixed precision (float CG could not reach the tolerance): " + stepList(m_mixedSteps));
    if (!m_unconverged.empty())
      ImGui::Text("%zu of %zu steps did not converge", m_unconverged.size(), m_iterations.size());
  }

  if (section("backend", false)) backendPanel();

  if (ImGui::Button(controls.paused ? "play (space)" : "pause (space)")) controls.paused = !controls.paused;
  if (flowButton("step (N)")) {
    step();
    ++controls.steps;
  }
  if (flowButton("reset (R)")) restart();
  if (flowButton("screenshot (S)")) controls.screenshotRequested = true;
  if (!controls.lastScreenshot.empty()) wrappedText("saved " + controls.lastScreenshot);
  ImGui::InputText("##export", m_exportField, sizeof m_exportField);
  if (flowButton("export OBJ") && m_exportField[0] != 0) {
    exportObj(m_exportField);
#ifdef __EMSCRIPTEN__
    if (!m_statusIsError) offerDownload(m_exportField);  // the page's in-memory file, as a download
#endif
  }

  // ---- View -----------------------------------------------------------------------
  if (section("view")) {
    m_table.widget("wireframe");
    m_table.widget("curvature-colors");
    m_table.widget("curvature-range");
  }

  // ---- Numbers ----------------------------------------------------------------------
  ImGui::Separator();
  ImGui::Text("step %lld", flow.steps());
  runRatePanel(controls);
  if (!m_area.empty()) {
    char line[200];
    std::snprintf(line, sizeof line, "area %.6g   volume %.6g   degenerate triangles %zu", m_area.back(),
                  m_volume.back(), m_degenerate.back());
    wrappedText(line);
    const std::vector<float> ms = plotTail(m_ms);
    ImGui::PlotLines("ms per step", ms.data(), int(ms.size()), 0, nullptr, 0.0f, FLT_MAX, ImVec2(0, 40));
  }
  const bool profiling = stream::Runtime::current().profiler().enabled();
  if (section("GPU time per pass", profiling)) profilerPanel();
}

void SmoothDemo::report(nlohmann::json& out) const {
  const geometry::CurvatureFlow& flow = *m_flow;
  out["settings"] = nlohmann::json(m_table.toJson());
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
  out["cg_tolerance"] = shortest(flow.options().cg.tolerance);
  out["cg_max_iterations"] = *flow.options().cg.maxIterations;
  out["preconditioner"] = flow.options().jacobi ? "jacobi" : "none";
  out["flow"] = stream::nameOf(geometry::flowNames(), flow.options().flow);
  out["precision"] = stream::nameOf(solvers::precisionNames(), flow.options().precision);
  if (flow.options().precision != solvers::Precision::Single) {
    out["inner_tolerance"] = shortest(flow.options().innerTolerance);
    out["inner_iterations"] = m_innerIterations;
  }
  // The steps solved in mixed precision (1-based): all of them with mixed, those float CG
  // could not bring to the tolerance with auto.
  out["mixed_precision_steps"] = m_mixedSteps;
  out["true_residual"] = m_trueResiduals;  // ||b - A x||/||b|| where a convergence formed it, else null
  out["initial_area"] = flow.reference().area;
  out["initial_volume"] = flow.reference().volume;
  out["cg_iterations"] = m_iterations;
  out["residual"] = m_residuals;
  out["ms"] = m_ms;
  out["area"] = m_area;
  out["volume"] = m_volume;
  out["degenerate_triangles"] = m_degenerate;
  out["mesh_notes"] = flow.notes();
  out["cg_outcomes"] = m_outcomes;
  out["unconverged_steps"] = m_unconverged.empty() ? nlohmann::json::array() : nlohmann::json(m_unconverged);
  out["method"] = m_settings.dsi.enabled ? "dsi" : "curvature";
  if (m_settings.dsi.enabled && m_dsi) m_dsi->report(out);
  out["camera"] = {{"yaw", m_camera.yaw}, {"pitch", m_camera.pitch}, {"distance", m_camera.distance}};
}

}  // namespace texstream::app
