#include "WaveDemo.h"

#include "RunRatePanel.h"
#include "SolvePanel.h"

#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>

namespace texstream::app {

namespace {

const int kGridSizes[] = {64, 128, 256, 512, 1024, 2048};

}  // namespace

WaveDemo::WaveDemo(const RunContext& ctx, const WaveSettings& settings)
    : SettingsDemo(settings), m_maxTextureSize(ctx.maxTextureSize) {
  if (m_settings.width > m_maxTextureSize || m_settings.height > m_maxTextureSize)
    throw UsageError("--size: invalid value \"" + std::to_string(m_settings.width) + "x" +
                     std::to_string(m_settings.height) + "\": each side must be in [2, " +
                     std::to_string(m_maxTextureSize) + "] (the maximum texture size of this context)");
  rebuild(m_settings.width, m_settings.height);
  const wave::WaveParameters& p = m_wave->parameters();
  if (p.scheme == wave::Scheme::Explicit && m_wave->cfl() > wave::WaveEquation::explicitCflLimit())
    std::cerr << "texstream-wave: warning: the explicit scheme is unstable at c dt / h = " << m_wave->cfl() << " > "
              << wave::WaveEquation::explicitCflLimit() << "; heights will blow up (use --scheme implicit)\n";
}

void WaveDemo::rebuild(int width, int height) {
  wave::WaveParameters p = m_settings.params;
  if (m_settings.autoDt) p.dt = float(0.5 / (double(std::max(width, height)) + 1.0) / p.speed);
  m_wave.reset();  // free the old textures first: a 2048^2 grid holds five of 16 MiB
  m_wave.emplace(width, height, p, "wave");
  m_settings.params = m_wave->parameters();
  m_settings.width = width;
  m_settings.height = height;
  dropStartingRipples();
  frameCamera();
  m_lastParameters = m_wave->parameters();
  m_referenceEnergy = m_wave->energy();
  m_inputSinceStep = true;
}

HealthMeasure WaveDemo::measureHealth(stream::Scalar& out) {
  m_wave->energy(out);
  HealthMeasure h;
  h.quantity = "wave energy";
  h.limit = m_referenceEnergy > 0 ? kRunawayFactor * m_referenceEnergy : std::numeric_limits<double>::infinity();
  h.limitText = "1e4 x the energy after the last input";
  return h;
}

void WaveDemo::restart() { rebuild(m_wave->gridWidth(), m_wave->gridHeight()); }

void WaveDemo::checkPreset(WaveSettings& next, const std::string& source) const {
  finishWaveSettings(next);
  if (next.width > m_maxTextureSize || next.height > m_maxTextureSize)
    throw std::runtime_error(source + ": size: " + std::to_string(next.width) + "x" + std::to_string(next.height) +
                             " exceeds this context's texture limit " + std::to_string(m_maxTextureSize));
}

void WaveDemo::dropStartingRipples() {
  // Fixed drops, so that a headless run (and its screenshot) shows interfering waves.
  const double h = m_wave->spacing();
  const float lx = float((m_wave->gridWidth() + 1) * h), ly = float((m_wave->gridHeight() + 1) * h);
  m_wave->dropRipple(0.30f * lx, 0.35f * ly, 0.05f * std::min(lx, ly), 0.05f);
  m_wave->dropRipple(0.68f * lx, 0.62f * ly, 0.04f * std::min(lx, ly), 0.04f);
  m_wave->dropRipple(0.42f * lx, 0.78f * ly, 0.03f * std::min(lx, ly), -0.03f);
}

void WaveDemo::frameCamera() {
  const double h = m_wave->spacing();
  const float lx = float((m_wave->gridWidth() + 1) * h), ly = float((m_wave->gridHeight() + 1) * h);
  m_camera.frame(glm::vec3(0.5f * lx, 0.0f, 0.5f * ly), 0.5f * std::hypot(lx, ly));
  m_camera.distance = 1.85f * std::max(lx, ly);
  m_camera.minPitch = 0.05f;  // stay above the water
}

void WaveDemo::step() {
  const wave::WaveParameters& p = m_wave->parameters();
  if (p.dt != m_lastParameters.dt || p.speed != m_lastParameters.speed || p.scheme != m_lastParameters.scheme) {
    m_inputSinceStep = true;
    m_lastParameters = p;
  }
  m_wave->step();
  m_energy.push_back(m_wave->energy());
  if (m_inputSinceStep && std::isfinite(m_energy.back())) {
    m_referenceEnergy = std::max(m_referenceEnergy, m_energy.back());
    m_inputSinceStep = false;
  }
  const bool implicit = m_wave->parameters().scheme == wave::Scheme::Implicit;
  m_anyImplicit = m_anyImplicit || implicit;
  m_cgIterations.push_back(implicit ? m_wave->lastSolve().iterations : 0);
  m_cgOutcomes.push_back(implicit ? solvers::outcomeName(m_wave->lastSolve().outcome) : "");
}

void WaveDemo::render(int width, int height) {
  m_lastWidth = width;
  m_lastHeight = height;
  glClearColor(0.09f, 0.10f, 0.13f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  HeightFieldView view;
  view.viewProjection = m_camera.projection(float(width) / float(std::max(height, 1))) * m_camera.view();
  view.eye = m_camera.eye();
  view.heightScale = m_settings.heightScale;
  view.colorScale = 1.0f / std::max(std::abs(m_settings.rippleAmplitude), 1e-4f);
  m_renderer.draw(m_wave->height(), m_wave->gridWidth(), m_wave->gridHeight(), float(m_wave->spacing()), view);
}

void WaveDemo::mouse(const MouseInput& in) {
  if (in.rightDown) m_camera.rotate(in.dx, in.dy);
  if (in.scroll != 0) m_camera.zoom(in.scroll);
  if (in.leftPressed) {
    // Ray–plane pick against the rest plane Y = 0.
    if (auto hit = m_camera.pickPlane(in.x, in.y, in.width, in.height)) {
      m_wave->dropRipple(hit->x, hit->z, m_settings.rippleRadius, m_settings.rippleAmplitude);
      m_inputSinceStep = true;
    }
  }
}

void WaveDemo::overlay(ShellControls& /*controls*/) {
  if (!ImGui::GetIO().WantCaptureKeyboard && ImGui::IsKeyPressed(GLFW_KEY_C, false)) m_wave->reset();
}

void WaveDemo::gui(ShellControls& controls) {
  wrappedText("2D wave equation, Krueger & Westermann GPU Gems 2 s44.4. Left click: drop a ripple. "
              "Right drag: orbit. Scroll: zoom.");
  ImGui::Separator();

  wave::WaveEquation& w = *m_wave;
  wave::WaveParameters& p = m_settings.params;

  if (section("simulation")) {
    // Grid size: rebuilds the simulation.
    const std::string current = std::to_string(w.gridWidth()) + " x " + std::to_string(w.gridHeight());
    checkComboPreview("grid", current.c_str());
    if (ImGui::BeginCombo("grid", current.c_str())) {
      for (int n : kGridSizes) {
        if (n > m_maxTextureSize) continue;
        const std::string label = std::to_string(n) + " x " + std::to_string(n);
        if (ImGui::Selectable(label.c_str(), w.gridWidth() == n && w.gridHeight() == n)) {
          rebuild(n, n);
          ImGui::EndCombo();
          return;  // `w` is gone; the next frame draws the new grid
        }
      }
      ImGui::EndCombo();
    }
    if (m_table.widget("scheme")) w.setScheme(p.scheme);
    if (m_table.widget("speed")) w.setSpeed(p.speed);
    if (m_table.widget("dt")) {
      w.setDt(p.dt);
      m_settings.autoDt = false;
    }
    const double cfl = w.cfl();
    if (cfl > wave::WaveEquation::explicitCflLimit()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.3f, 0.3f, 1.0f));
      wrappedText("CFL c dt/h = " + std::to_string(cfl).substr(0, 5) + " > " +
                  std::to_string(wave::WaveEquation::explicitCflLimit()).substr(0, 5) + ": explicit scheme unstable");
      ImGui::PopStyleColor();
    } else {
      ImGui::Text("CFL c dt/h = %.3f (explicit limit %.3f)", cfl, wave::WaveEquation::explicitCflLimit());
    }
    if (m_table.widget("damping")) w.setDamping(p.damping);
  }

  if (section("CG (implicit scheme)")) {
    if (m_table.widget("tolerance")) w.setTolerance(p.cg.tolerance);
    if (m_table.widget("max-iterations")) w.setMaxIterations(p.cg.maxIterations.value_or(200));
    if (p.scheme == wave::Scheme::Implicit && !m_cgIterations.empty()) lastSolvePanel(w.lastSolve(), m_cgIterations);
  }

  if (section("backend", false)) backendPanel();

  if (section("view and ripples")) {
    m_table.widget("height-scale");
    m_table.widget("ripple-radius");
    m_table.widget("ripple-height");
  }

  if (ImGui::Button(controls.paused ? "run (space)" : "pause (space)")) controls.paused = !controls.paused;
  if (flowButton("step (N)")) {
    step();
    ++controls.steps;
  }
  if (flowButton("reset (R)")) {
    w.reset();
    dropStartingRipples();
    m_inputSinceStep = true;
  }
  if (flowButton("clear (C)")) w.reset();
  if (flowButton("screenshot (S)")) controls.screenshotRequested = true;
  if (!controls.lastScreenshot.empty()) wrappedText("saved " + controls.lastScreenshot);

  ImGui::Separator();
  ImGui::Text("step %lld", w.steps());
  runRatePanel(controls);
  if (!m_energy.empty()) {
    ImGui::Text("energy %.6e", m_energy.back());
    // From zero, so that float noise on a conserved energy does not look like a trend.
    const std::vector<float> e = plotTail(m_energy);
    float top = 0.0f;
    for (float v : e) top = std::isfinite(v) ? std::max(top, v) : top;
    ImGui::PlotLines("energy", e.data(), int(e.size()), 0, nullptr, 0.0f, top > 0.0f ? 1.2f * top : 1.0f,
                     ImVec2(0, 50));
  }
  const bool profiling = stream::Runtime::current().profiler().enabled();
  if (section("GPU time per pass", profiling)) profilerPanel();
}

void WaveDemo::report(nlohmann::json& out) const {
  const wave::WaveParameters& p = m_wave->parameters();
  out["settings"] = nlohmann::json(m_table.toJson());
  out["scheme"] = wave::schemeName(p.scheme);
  out["size"] = {m_wave->gridWidth(), m_wave->gridHeight()};
  out["dt"] = p.dt;
  out["speed"] = p.speed;
  out["damping"] = p.damping;
  out["cfl"] = m_wave->cfl();
  out["explicit_cfl_limit"] = wave::WaveEquation::explicitCflLimit();
  out["energy"] = m_energy;
  if (m_anyImplicit) {
    out["cg_iterations"] = m_cgIterations;
    out["cg_outcomes"] = m_cgOutcomes;
    out["cg_tolerance"] = p.cg.tolerance;
    out["cg_max_iterations"] = p.cg.maxIterations.value_or(0);
  }
}

}  // namespace texstream::app
