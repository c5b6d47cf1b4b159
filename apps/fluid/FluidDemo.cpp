#include "FluidDemo.h"

#include "NamedCombo.h"
#include "RunRatePanel.h"

#include <texstream/gl/Capabilities.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>
// After glad: GLFW must not include the system GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace texstream::app {

namespace {


void hueToRgb(float h, float& r, float& g, float& b) {
  auto f = [&](float n) {
    const float k = std::fmod(n + h * 6.0f, 6.0f);
    return 1.0f - std::max(0.0f, std::min({k, 4.0f - k, 1.0f}));
  };
  r = f(5.0f), g = f(3.0f), b = f(1.0f);
}

}  // namespace

FluidDemo::FluidDemo(const RunContext& ctx, const FluidSettings& settings) : m_settings(settings) {
  // Half floats where the context renders nothing wider (FluidSolver.h).
  m_settings.params.fieldFormat = fluid::defaultFieldFormat();
  rebuild();
  if (!m_solver->projects())
    std::cerr << "texstream-fluid: half-float mode: " << m_solver->halfFloatLimits() << "\n";
  if (!m_solver->fieldAvailable(m_settings.display)) {
    std::cerr << "texstream-fluid: --display " << fluid::fieldName(m_settings.display)
              << ": not available without the pressure projection; showing the dye\n";
    m_settings.display = fluid::Field::Dye;
  }
  m_renderer = std::make_unique<FluidRenderer>();
  if (m_settings.exportAfter < 0 && ctx.headless)
    m_settings.exportAfter = ctx.options.steps >= 0 ? ctx.options.steps : ctx.options.defaultSteps;
  if (m_settings.exportAfter < 0 && ctx.options.steps >= 0) m_settings.exportAfter = ctx.options.steps;
}

FluidDemo::~FluidDemo() {
  // An interactive run writes the fields when the window closes.
  if (!m_exported && !m_settings.exportFields.empty() && m_solver) {
    try {
      exportFields();
    } catch (const std::exception& e) {
      std::cerr << "texstream-fluid: " << e.what() << "\n";
    }
  }
}

void FluidDemo::rebuild() {
  m_solver = std::make_unique<fluid::FluidSolver>(m_settings.params);
  m_settings.params = m_solver->parameters();
  m_pendingNx = m_solver->nx();
  m_pendingNy = m_solver->ny();
  if (m_brushRadius <= 0) m_brushRadius = std::max(2.0f, float(std::min(m_solver->nx(), m_solver->ny())) / 40.0f);
  m_plotResidual.clear();
}

void FluidDemo::measureHealth(stream::Scalar& out) {
  m_solver->fieldImage(fluid::Field::Velocity, m_velocityImage);
  stream::dot(m_velocityImage, m_velocityImage, out);
}

HealthMeasure FluidDemo::health() const {
  if (!m_solver->projects()) {
    HealthMeasure off;
    off.unavailable = "the blow-up watch needs RGBA32F render targets (its sum of squares is a reduction)";
    return off;
  }
  const double runawaySpeed = kRunawayCellsPerStep * m_solver->h() / m_solver->dt();
  const double nodes = double(m_solver->nx()) * double(m_solver->ny());
  HealthMeasure h;
  h.quantity = "sum of squared node speeds";
  h.limit = nodes * runawaySpeed * runawaySpeed;
  h.limitText = "every node moving 1000 cells a step";
  return h;
}

void FluidDemo::restart() { m_solver->reset(true); }

void FluidDemo::exportFields() {
  m_solver->writeCsv(m_settings.exportFields);
  m_exported = true;
  std::cerr << "texstream-fluid: wrote " << m_settings.exportFields << "\n";
}

void FluidDemo::step() {
  stream::Profiler& profiler = stream::Runtime::current().profiler();
  m_solver->step();
  const fluid::StepStats& s = m_solver->lastStats();
  m_divBefore.push_back(s.divergenceBefore);
  m_divAfter.push_back(s.divergenceAfter);
  m_divAfterNodes.push_back(s.divergenceAfterNodes);
  m_maxSpeed.push_back(s.maxSpeed);
  m_residuals.push_back(s.residuals);
  m_iterations.push_back(s.iterations);
  std::map<std::string, double> passes;
  if (profiler.enabled())
    for (const auto& [label, st] : profiler.stats()) passes[label] = st.lastMs;
  m_passMs.push_back(std::move(passes));
  if (!s.residuals.empty()) {
    for (double r : s.residuals) m_plotResidual.push_back(float(std::log10(std::max(r, 1e-12))));
    if (m_plotResidual.size() > 400) m_plotResidual.erase(m_plotResidual.begin(), m_plotResidual.end() - 400);
  }
  if (!s.finite && m_settings.params.statistics)
    std::cerr << "texstream-fluid: step " << m_solver->steps() << ": the velocity holds NaN or Inf\n";
  if (!m_settings.exportFields.empty() && !m_exported && m_settings.exportAfter >= 0 &&
      m_solver->steps() >= m_settings.exportAfter)
    exportFields();
}

void FluidDemo::viewRect(int width, int height, float& x, float& y, float& w, float& h) const {
  const float aspect = float(m_solver->nx() - 1) / float(m_solver->ny() - 1);
  w = float(width);
  h = w / aspect;
  if (h > float(height)) {
    h = float(height);
    w = h * aspect;
  }
  x = 0.5f * (float(width) - w);
  y = 0.5f * (float(height) - h);
}

void FluidDemo::render(int width, int height) {
  m_lastWidth = width;
  m_lastHeight = height;
  glClearColor(0.08f, 0.08f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  float x, y, w, h;
  viewRect(width, height, x, y, w, h);
  glViewport(int(x), int(y), int(w), int(h));
  m_renderer->draw(*m_solver, m_settings.display, m_settings.particles);
  glViewport(0, 0, width, height);
}

void FluidDemo::mouse(const MouseInput& input) {
  if (m_lastWidth == 0) return;
  float x, y, w, h;
  viewRect(input.width, input.height, x, y, w, h);
  const float sx = float(m_solver->nx() - 1) / w, sy = float(m_solver->ny() - 1) / h;
  const float nodeX = (input.x - x) * sx, nodeY = (input.y - y) * sy;
  const float i = nodeX, j = float(m_solver->ny() - 1) - nodeY;  // node y grows upwards
  if (i < 0 || j < 0 || i > float(m_solver->nx() - 1) || j > float(m_solver->ny() - 1)) return;
  if (input.leftDown && (input.dx != 0 || input.dy != 0 || input.leftPressed)) {
    // The fluid follows the cursor: the drag in nodes per step, as a velocity.
    const double cellsToVelocity = m_solver->h() / m_solver->dt();
    fluid::Splat s;
    s.x = i;
    s.y = j;
    s.forceX = float(input.dx * sx * cellsToVelocity * m_brushForce);
    s.forceY = float(-input.dy * sy * cellsToVelocity * m_brushForce);
    s.radius = m_brushRadius;
    m_hue = std::fmod(m_hue + 0.005f, 1.0f);
    hueToRgb(m_hue, s.r, s.g, s.b);
    s.r *= 0.8f, s.g *= 0.8f, s.b *= 0.8f;
    m_solver->addSplat(s);
  }
  if (input.rightDown) {
    const bool erase = ImGui::GetIO().KeyShift;
    m_solver->paintObstacle(i, j, m_brushRadius, !erase);
  }
}

void FluidDemo::gui(ShellControls& controls) {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) controls.paused = !controls.paused;
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) m_solver->reset(true);
    if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) controls.screenshotRequested = true;
  }

  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("texstream-fluid");
  fluid::FluidParameters p = m_settings.params;
  bool changed = false, rebuildNeeded = false;

  ImGui::Text("%s %dx%d, step %lld, t = %.3f", fluid::sceneName(p.scene), m_solver->nx(), m_solver->ny(),
              m_solver->steps(), m_solver->time());
  runRatePanel(controls);
  if (!m_solver->projects()) {
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "half-float mode (RGBA16F fields)");
    ImGui::TextWrapped("%s.", m_solver->halfFloatLimits().c_str());
  }
  if (ImGui::Button(controls.paused ? "run (space)" : "pause (space)")) controls.paused = !controls.paused;
  ImGui::SameLine();
  if (ImGui::Button("reset (R)")) m_solver->reset(true);
  ImGui::SameLine();
  if (ImGui::Button("screenshot (S)")) controls.screenshotRequested = true;

  if (ImGui::CollapsingHeader("scene", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (namedCombo("scene", p.scene, fluid::sceneNames())) {
      const fluid::SceneDefaults d = fluid::sceneDefaults(p.scene);
      p.nx = d.nx, p.ny = d.ny, p.dt = 0, p.viscosity = -1, p.vorticity = -1, p.buoyancy = -1;
      p.velocityDissipation = -1, p.dyeDissipation = -1;
      rebuildNeeded = true;
    }
    ImGui::InputInt("nx", &m_pendingNx);
    ImGui::InputInt("ny", &m_pendingNy);
    m_pendingNx = std::clamp(m_pendingNx, 8, 8192);
    m_pendingNy = std::clamp(m_pendingNy, 8, 8192);
    if ((m_pendingNx != m_solver->nx() || m_pendingNy != m_solver->ny()) && ImGui::Button("apply grid size")) {
      p.nx = m_pendingNx, p.ny = m_pendingNy, p.dt = 0;
      rebuildNeeded = true;
    }
    float dt = float(p.dt);
    if (ImGui::SliderFloat("time step", &dt, 1e-4f, 0.1f, "%.5f", ImGuiSliderFlags_Logarithmic)) {
      p.dt = dt;
      changed = true;
    }
    if (p.scene == fluid::Scene::Cavity) {
      float re = float(1.0 / std::max(p.viscosity, 1e-9));
      if (ImGui::SliderFloat("Reynolds number", &re, 1.0f, 10000.0f, "%.0f", ImGuiSliderFlags_Logarithmic)) {
        p.viscosity = 1.0 / re;
        p.reynolds = re;
        changed = true;
      }
    } else {
      float nu = float(p.viscosity);
      if (ImGui::SliderFloat("viscosity", &nu, 0.0f, 0.01f, "%.6f", ImGuiSliderFlags_Logarithmic)) {
        p.viscosity = nu;
        changed = true;
      }
    }
    float vort = float(p.vorticity), vd = float(p.velocityDissipation), dd = float(p.dyeDissipation);
    float buoy = float(p.buoyancy);
    if (ImGui::SliderFloat("vorticity", &vort, 0.0f, 2.0f)) p.vorticity = vort, changed = true;
    if (ImGui::SliderFloat("velocity dissipation", &vd, 0.0f, 2.0f)) p.velocityDissipation = vd, changed = true;
    if (ImGui::SliderFloat("dye dissipation", &dd, 0.0f, 2.0f)) p.dyeDissipation = dd, changed = true;
    if (ImGui::SliderFloat("buoyancy", &buoy, 0.0f, 5.0f)) p.buoyancy = buoy, changed = true;
    if (namedCombo("advection", p.advection, fluid::advectionNames())) changed = true;
    ImGui::SliderFloat("brush radius", &m_brushRadius, 1.0f, 40.0f);
    ImGui::SliderFloat("brush force", &m_brushForce, 0.1f, 5.0f);
    ImGui::TextDisabled("left drag: force + dye, right drag: obstacle (shift: erase)");
  }

  if (!m_solver->projects()) {
    if (ImGui::CollapsingHeader("pressure solver", ImGuiTreeNodeFlags_DefaultOpen))
      ImGui::TextWrapped("off: multigrid, CG and Jacobi need RGBA32F render targets (%s), which this device lacks.",
                         gl::Capabilities::kFloatTargetsExtension);
  } else if (ImGui::CollapsingHeader("pressure solver", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (namedCombo("solver", p.solver, fluid::pressureSolverNames())) changed = true;
    if (p.solver == fluid::PressureSolver::Multigrid) {
      if (ImGui::SliderInt("cycles per step", &p.cycles, 1, 10)) changed = true;
      if (namedCombo("cycle", p.multigrid.cycle, solvers::cycleTypeNames())) changed = true;
      if (ImGui::SliderInt("eta1 (pre)", &p.multigrid.preSmoothing, 0, 8)) changed = true;
      if (ImGui::SliderInt("eta2 (post)", &p.multigrid.postSmoothing, 0, 8)) changed = true;
      if (ImGui::SliderFloat("omega", &p.multigrid.omega, 0.1f, 1.2f)) changed = true;
      if (namedCombo("coarse solve", p.multigrid.coarseSolve, solvers::coarseSolveNames())) changed = true;
      if (ImGui::SliderInt("coarse iterations", &p.multigrid.coarseIterations, 1, 200)) changed = true;
      if (namedCombo("border sync", p.multigrid.border, solvers::borderUpdateNames())) changed = true;
      ImGui::Text("%d levels, finest %s", m_solver->pressureMultigrid().levels(),
                  m_solver->pressureMultigrid().grid(0).describe().c_str());
    } else {
      if (ImGui::SliderInt("iterations per step", &p.iterations, 1, 500)) changed = true;
    }
    float tol = p.tolerance;
    if (ImGui::InputFloat("tolerance (0: fixed count)", &tol, 0, 0, "%.1e")) {
      p.tolerance = std::max(0.0f, tol);
      changed = true;
    }
    if (ImGui::Checkbox("statistics (blocking reads)", &p.statistics)) changed = true;
  }

  if (ImGui::CollapsingHeader("display and backend", ImGuiTreeNodeFlags_DefaultOpen)) {
    const fluid::Field shown = m_settings.display;
    if (namedCombo("field", m_settings.display, fluid::fieldNames()) && !m_solver->fieldAvailable(m_settings.display))
      m_settings.display = shown;  // pressure and divergence need the projection
    if (!m_solver->projects()) ImGui::TextDisabled("pressure, divergence: need the pressure projection");
    ImGui::Checkbox("particles", &m_settings.particles);
    backendPanel();
  }

  if (ImGui::CollapsingHeader("statistics", ImGuiTreeNodeFlags_DefaultOpen)) {
    const fluid::StepStats& s = m_solver->lastStats();
    ImGui::Text("divergence: %.3e -> %.3e (faces), %.3e (nodes)", s.divergenceBefore, s.divergenceAfter,
                s.divergenceAfterNodes);
    ImGui::Text("%d %s, max |u| %.3f", s.iterations,
                p.solver == fluid::PressureSolver::Multigrid ? "cycles" : "iterations", s.maxSpeed);
    if (!m_plotResidual.empty())
      ImGui::PlotLines("log10 residual", m_plotResidual.data(), int(m_plotResidual.size()), 0, nullptr, -8.0f, 0.0f,
                       ImVec2(0, 80));
  }
  if (ImGui::CollapsingHeader("GPU time per pass")) profilerPanel();
  ImGui::End();

  if (rebuildNeeded) {
    m_settings.params = p;
    rebuild();
  } else if (changed) {
    try {
      m_solver->setParameters(p);
      m_settings.params = m_solver->parameters();
    } catch (const std::exception& e) {
      std::cerr << "texstream-fluid: " << e.what() << "\n";
    }
  }
}

void FluidDemo::report(nlohmann::json& out) const {
  const fluid::FluidParameters& p = m_solver->parameters();
  out["size"] = {m_solver->nx(), m_solver->ny()};
  out["scene"] = fluid::sceneName(p.scene);
  out["dt"] = p.dt;
  out["viscosity"] = p.viscosity;
  if (p.scene == fluid::Scene::Cavity && p.viscosity > 0) out["reynolds"] = 1.0 / p.viscosity;
  out["advection"] = fluid::advectionName(p.advection);
  out["solver"] = fluid::pressureSolverName(p.solver);
  out["cycles"] = p.cycles;
  out["iterations_per_step"] = p.iterations;
  out["tolerance"] = p.tolerance;
  out["pre_smoothing"] = p.multigrid.preSmoothing;
  out["post_smoothing"] = p.multigrid.postSmoothing;
  out["omega"] = p.multigrid.omega;
  out["coarse_solve"] = solvers::coarseSolveName(p.multigrid.coarseSolve);
  out["border"] = solvers::borderUpdateName(p.multigrid.border);
  out["field_format"] = gl::formatName(p.fieldFormat);
  out["projection"] = m_solver->projects();
  if (!m_solver->projects()) out["half_float_limits"] = m_solver->halfFloatLimits();
  else out["levels"] = m_solver->pressureMultigrid().levels();
  out["divergence_before"] = m_divBefore;
  out["divergence_after"] = m_divAfter;
  out["divergence_after_nodes"] = m_divAfterNodes;
  out["max_speed"] = m_maxSpeed;
  out["residuals"] = m_residuals;
  out["solver_iterations"] = m_iterations;
  nlohmann::json passes = nlohmann::json::array();
  for (const auto& m : m_passMs) passes.push_back(m);
  out["pass_ms"] = passes;
  if (!m_settings.exportFields.empty()) out["export_fields"] = m_settings.exportFields;
}

}  // namespace texstream::app
