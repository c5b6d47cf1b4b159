#include "FluidDemo.h"

#include "Column.h"
#include "NamedCombo.h"
#include "Panel.h"
#include "ParameterEdit.h"
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
#include <cstdio>
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

/// "1.2e-03" for the legend.
std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

}  // namespace

FluidDemo::FluidDemo(const RunContext& ctx, const FluidSettings& settings) : SettingsDemo(settings) {
  rebuild();
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
  finishFluidSettings(m_settings);
  // Half floats where the context renders nothing wider (FluidSolver.h).
  m_settings.params.fieldFormat = fluid::defaultFieldFormat();
  m_solver = std::make_unique<fluid::FluidSolver>(m_settings.params);
  m_settings.params = m_solver->parameters();
  if (m_solver->halfFloatMode() && !m_halfFloatReported) {
    std::cerr << "texstream-fluid: half-float mode: " << m_solver->halfFloatLimits() << "\n";
    m_halfFloatReported = true;
  }
  m_plotResidual.clear();
  m_random.seed(1);
  randomSplats(m_settings.splats);
}

void FluidDemo::randomSplats(int count) {
  const double cellsToVelocity = m_solver->h() / m_solver->dt();
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float nx = float(m_solver->nx() - 1), ny = float(m_solver->ny() - 1);
  for (int k = 0; k < count; ++k) {
    fluid::Splat s;
    s.x = (0.15f + 0.7f * unit(m_random)) * nx;
    s.y = (0.15f + 0.7f * unit(m_random)) * ny;
    const float angle = 6.2831853f * unit(m_random), speed = float(2.0 * cellsToVelocity) * (0.5f + unit(m_random));
    s.forceX = speed * std::cos(angle);
    s.forceY = speed * std::sin(angle);
    s.radius = 2.5f * std::max(2.0f, std::min(nx, ny) / 40.0f);
    hueToRgb(unit(m_random), s.r, s.g, s.b);
    m_solver->addSplat(s);
  }
}

HealthMeasure FluidDemo::measureHealth(stream::Scalar& out) {
  if (m_solver->halfFloatMode()) {
    HealthMeasure off;
    off.unavailable = "the blow-up watch needs RGBA32F render targets (its sum of squares is a reduction)";
    return off;
  }
  m_solver->fieldImage(fluid::Field::Velocity, m_velocityImage);
  stream::dot(m_velocityImage, m_velocityImage, out);
  const double nodes = double(m_solver->nx()) * double(m_solver->ny());
  return runawaySpeedMeasure(nodes, "node", kRunawayCellsPerStep, m_solver->h(), m_solver->dt());
}

void FluidDemo::restart() {
  m_solver->reset(true);
  m_random.seed(1);
  randomSplats(m_settings.splats);
}

void FluidDemo::syncSettings() { m_settings.params = m_solver->parameters(); }

FluidSettings FluidDemo::presetBase() const {
  FluidSettings base;
  base.exportFields = m_settings.exportFields;
  base.exportAfter = m_settings.exportAfter;
  return base;
}

void FluidDemo::exportFields() {
  m_solver->writeCsv(m_settings.exportFields);
  m_exported = true;
  std::cerr << "texstream-fluid: wrote " << m_settings.exportFields << "\n";
}

void FluidDemo::step() {
  m_solver->step();
  const fluid::StepStats& s = m_solver->lastStats();
  m_steps.push_back(s);
  m_passMs.record();
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
  GLint viewport[4] = {0, 0, width, height};
  glGetIntegerv(GL_VIEWPORT, viewport);
  glClearColor(0.08f, 0.08f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  float x, y, w, h;
  viewRect(width, height, x, y, w, h);  // centred: the same from the top and the bottom
  glViewport(viewport[0] + int(x), viewport[1] + int(y), int(w), int(h));
  m_renderer->draw(*m_solver, m_settings);
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
}

void FluidDemo::mouse(const MouseInput& input) {
  if (m_lastWidth == 0) return;
  float x, y, w, h;
  viewRect(input.width, input.height, x, y, w, h);
  const float sx = float(m_solver->nx() - 1) / w, sy = float(m_solver->ny() - 1) / h;
  const float nodeX = (input.x - x) * sx, nodeY = (input.y - y) * sy;
  const float i = nodeX, j = float(m_solver->ny() - 1) - nodeY;  // node y grows upwards
  if (i < 0 || j < 0 || i > float(m_solver->nx() - 1) || j > float(m_solver->ny() - 1)) return;
  const float radius = m_settings.brushRadius > 0
                           ? m_settings.brushRadius
                           : std::max(2.0f, float(std::min(m_solver->nx(), m_solver->ny())) / 40.0f);
  if (input.leftDown && (input.dx != 0 || input.dy != 0 || input.leftPressed)) {
    // The fluid follows the cursor: the drag in nodes per step, as a velocity.
    const double cellsToVelocity = m_solver->h() / m_solver->dt();
    fluid::Splat s;
    s.x = i;
    s.y = j;
    s.forceX = float(input.dx * sx * cellsToVelocity * m_settings.brushForce);
    s.forceY = float(-input.dy * sy * cellsToVelocity * m_settings.brushForce);
    s.radius = radius;
    m_hue = std::fmod(m_hue + 0.005f, 1.0f);
    hueToRgb(m_hue, s.r, s.g, s.b);
    s.r *= 0.8f, s.g *= 0.8f, s.b *= 0.8f;
    m_solver->addSplat(s);
  }
  if (input.rightDown) {
    const bool erase = ImGui::GetIO().KeyShift;
    m_solver->paintObstacle(i, j, radius, !erase);
  }
}

void FluidDemo::legend(const ShellControls& controls) {
  const fluid::Field field = m_settings.display;
  const bool ramp = field == fluid::Field::Dye &&
                    (m_settings.dyeColors == DyeColors::Vorticity || m_settings.dyeColors == DyeColors::Speed);
  const std::optional<float> range = m_renderer->range();
  if (!range || field == fluid::Field::Type || (field == fluid::Field::Dye && !ramp)) return;
  std::string title;
  bool diverging = true;
  switch (field) {
    case fluid::Field::Pressure: title = "pressure p"; break;
    case fluid::Field::Divergence: title = "flux divergence (1 / time)"; break;
    case fluid::Field::Vorticity: title = "vorticity (1 / time)"; break;
    case fluid::Field::Velocity:
      title = "speed (brightness; hue: direction), full at |u| or |v| =";
      diverging = false;
      break;
    default:
      title = m_settings.dyeColors == DyeColors::Vorticity ? "dye by |vorticity| (1 / time)" : "dye by speed";
      diverging = false;
      break;
  }
  // At the bottom of the view, in Dear ImGui's coordinates.
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  const float viewX = float(controls.view.x) / scale.x, viewW = float(controls.view.width) / scale.x;
  const float viewBottom = float(controls.view.y + controls.view.height) / scale.y;
  const float barW = std::min(320.0f, viewW - 40.0f), barH = 12.0f;
  if (barW < 80.0f) return;
  const float x0 = viewX + 0.5f * (viewW - barW), y0 = viewBottom - 52.0f;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddRectFilled(ImVec2(x0 - 8, y0 - 24), ImVec2(x0 + barW + 8, y0 + barH + 22), IM_COL32(10, 10, 14, 190), 4.0f);
  auto colorAt = [&](float t) -> ImU32 {  // t in [0, 1] along the bar, as the shader maps it
    float r, g, b;
    if (diverging) {
      const float s = 2.0f * t - 1.0f;
      const float white[3] = {0.95f, 0.95f, 0.95f}, blue[3] = {0.23f, 0.30f, 0.75f}, red[3] = {0.71f, 0.02f, 0.15f};
      const float* end = s < 0 ? blue : red;
      const float a = std::min(std::abs(s), 1.0f);
      r = white[0] + (end[0] - white[0]) * a, g = white[1] + (end[1] - white[1]) * a, b = white[2] + (end[2] - white[2]) * a;
    } else if (field == fluid::Field::Velocity) {
      r = g = b = t;
    } else {
      // The temperature ramp at 0.25 + 0.75 sqrt(t), as FluidRenderer's dyeColor.
      static const float stops[6][3] = {{0.02f, 0.01f, 0.06f}, {0.36f, 0.07f, 0.45f}, {0.80f, 0.15f, 0.25f},
                                         {0.98f, 0.50f, 0.10f}, {1.00f, 0.85f, 0.30f}, {1.00f, 1.00f, 0.92f}};
      const float u = std::clamp(0.25f + 0.75f * std::sqrt(t), 0.0f, 1.0f) * 5.0f;
      const int k = std::min(int(u), 4);
      const float f = u - float(k);
      r = stops[k][0] + (stops[k + 1][0] - stops[k][0]) * f;
      g = stops[k][1] + (stops[k + 1][1] - stops[k][1]) * f;
      b = stops[k][2] + (stops[k + 1][2] - stops[k][2]) * f;
    }
    return IM_COL32(int(r * 255), int(g * 255), int(b * 255), 255);
  };
  const int segments = 32;
  for (int k = 0; k < segments; ++k) {
    const float a = float(k) / segments, b = float(k + 1) / segments;
    draw->AddRectFilledMultiColor(ImVec2(x0 + a * barW, y0), ImVec2(x0 + b * barW, y0 + barH), colorAt(a), colorAt(b),
                                  colorAt(b), colorAt(a));
  }
  const ImU32 text = IM_COL32(230, 230, 235, 255);
  draw->AddText(ImVec2(x0, y0 - 18), text, title.c_str());
  const std::string lo = diverging ? number(-*range) : "0", mid = diverging ? "0" : number(0.5 * *range),
                    hi = number(*range);
  draw->AddText(ImVec2(x0, y0 + barH + 3), text, lo.c_str());
  draw->AddText(ImVec2(x0 + 0.5f * barW - 0.5f * ImGui::CalcTextSize(mid.c_str()).x, y0 + barH + 3), text, mid.c_str());
  draw->AddText(ImVec2(x0 + barW - ImGui::CalcTextSize(hi.c_str()).x, y0 + barH + 3), text, hi.c_str());
}

void FluidDemo::overlay(ShellControls& controls) {
  if (!ImGui::GetIO().WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) randomSplats(5);
    if (ImGui::IsKeyPressed(GLFW_KEY_D, false)) {
      const auto names = fluid::fieldNames();
      const int next = (stream::indexOf(names, m_settings.display) + 1) % int(names.size());
      m_settings.display = names[std::size_t(next)].value;
    }
  }
  legend(controls);
}

void FluidDemo::gui(ShellControls& controls) {
  fluid::FluidParameters& p = m_settings.params;
  bool changed = false, rebuildNeeded = false;

  wrappedText(std::string(fluid::sceneName(p.scene)) + " " + std::to_string(m_solver->nx()) + "x" +
              std::to_string(m_solver->ny()) + ", step " + std::to_string(m_solver->steps()) + ", t = " +
              number(m_solver->time()));
  runRatePanel(controls);
  if (m_solver->halfFloatMode()) {
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "half-float mode (RGBA16F fields)");
    wrappedText(m_solver->halfFloatLimits() + ".");
  }
  if (ImGui::Button(controls.paused ? "run (space)" : "pause (space)")) controls.paused = !controls.paused;
  if (flowButton("reset (R)")) restart();
  if (flowButton("splats (P)")) randomSplats(5);
  if (flowButton("screenshot (S)")) controls.screenshotRequested = true;

  if (section("scene")) {
    if (m_table.widget("scene")) {
      // A new scene starts from its own defaults.
      p.nx = 0, p.ny = 0, p.dt = 0, p.viscosity = -1, p.vorticity = -1, p.buoyancy = -1;
      p.velocityDissipation = -1, p.dyeDissipation = -1;
      rebuildNeeded = true;
    }
    if (m_table.widget("size")) p.dt = 0, rebuildNeeded = true;
    changed |= m_table.widget("dt");
    if (m_solver->halfFloatMode()) {
      ImGui::TextDisabled("viscosity: off (its solve needs RGBA32F targets)");
    } else if (p.scene == fluid::Scene::Cavity) {
      if (m_table.widget("re")) p.viscosity = 1.0 / p.reynolds, changed = true;
    } else {
      changed |= m_table.widget("viscosity");
    }
    for (const char* name : {"vorticity", "velocity-dissipation", "dye-dissipation", "buoyancy", "advection"})
      changed |= m_table.widget(name);
  }

  if (section("stirring")) {
    m_table.widget("splats");
    m_table.widget("brush-radius");
    m_table.widget("brush-force");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrappedText("Left drag: force and dye. Right drag: obstacles (shift: erase). P: random splats.");
    ImGui::PopStyleColor();
  }

  if (m_solver->halfFloatMode()) {
    if (section("pressure solver")) {
      wrappedText("Jacobi sweeps in RGBA16F: multigrid and CG need RGBA32F render targets (" +
                  std::string(gl::Capabilities::kFloatTargetsExtension) + "), which this device lacks.");
      changed |= m_table.widget("half-float-sweeps");
      changed |= m_table.widget("omega");
    }
  } else if (section("pressure solver")) {
    changed |= m_table.widget("solver");
    if (p.solver == fluid::PressureSolver::Multigrid) {
      for (const char* name : {"cycles", "cycle", "pre", "post", "omega", "coarse", "coarse-iterations", "border"})
        changed |= m_table.widget(name);
      wrappedText(std::to_string(m_solver->pressureMultigrid().levels()) + " levels, finest " +
                  m_solver->pressureMultigrid().grid(0).describe());
    } else {
      changed |= m_table.widget("iterations");
    }
    changed |= m_table.widget("tolerance");
    changed |= m_table.widget("statistics");
  }

  if (section("display")) {
    m_table.widget("display");
    if (m_settings.display == fluid::Field::Dye) {
      m_table.widget("dye-colors");
      if (m_settings.dyeColors == DyeColors::Single) m_table.widget("dye-color");
      m_table.widget("shading");
    }
    m_table.widget("arrows");
    if (m_settings.arrows) m_table.widget("arrow-spacing");
    m_table.widget("particles");
  }

  if (section("backend", false)) backendPanel();

  if (m_solver->halfFloatMode()) {
    if (section("statistics")) ImGui::TextDisabled("off: the reductions need RGBA32F render targets");
  } else if (section("statistics")) {
    const fluid::StepStats& s = m_solver->lastStats();
    wrappedText("divergence: " + number(s.divergenceBefore) + " -> " + number(s.divergenceAfter) + " (faces), " +
                number(s.divergenceAfterNodes) + " (nodes)");
    wrappedText(std::to_string(s.iterations) +
                (p.solver == fluid::PressureSolver::Multigrid ? " cycles" : " iterations") + ", max |u| " +
                number(s.maxSpeed));
    if (!m_plotResidual.empty()) {
      ImGui::PlotLines("log10 residual", m_plotResidual.data(), int(m_plotResidual.size()), 0, nullptr, -8.0f, 0.0f,
                       ImVec2(0, 80));
      checkLastItem("log10 residual");
    }
  }
  if (section("GPU time per pass", false)) profilerPanel();

  applyParameterEdit("texstream-fluid", m_solver, p, changed, rebuildNeeded, [this] { rebuild(); });
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
  out["tolerance"] = p.pressure.tolerance;
  out["pre_smoothing"] = p.multigrid.preSmoothing;
  out["post_smoothing"] = p.multigrid.postSmoothing;
  out["omega"] = p.multigrid.omega;
  out["coarse_solve"] = solvers::coarseSolveName(p.multigrid.coarseSolve);
  out["border"] = solvers::borderUpdateName(p.multigrid.border);
  out["field_format"] = gl::formatName(p.fieldFormat);
  out["half_float"] = m_solver->halfFloatMode();
  if (m_solver->halfFloatMode()) {
    out["half_float_limits"] = m_solver->halfFloatLimits();
    out["half_float_sweeps"] = p.halfFloatSweeps;
  } else {
    out["levels"] = m_solver->pressureMultigrid().levels();
  }
  out["settings"] = nlohmann::json(m_table.toJson());
  out["display"] = fluid::fieldName(m_settings.display);
  out["dye_colors"] = stream::nameOf(dyeColorNames(), m_settings.dyeColors);
  out["divergence_before"] = column(m_steps, &fluid::StepStats::divergenceBefore);
  out["divergence_after"] = column(m_steps, &fluid::StepStats::divergenceAfter);
  out["divergence_after_nodes"] = column(m_steps, &fluid::StepStats::divergenceAfterNodes);
  out["max_speed"] = column(m_steps, &fluid::StepStats::maxSpeed);
  out["residuals"] = column(m_steps, &fluid::StepStats::residuals);
  out["solver_iterations"] = column(m_steps, &fluid::StepStats::iterations);
  out["pass_ms"] = m_passMs.json();
  if (!m_settings.exportFields.empty()) out["export_fields"] = m_settings.exportFields;
}

}  // namespace texstream::app
