#include "WaveDemo.h"

#include "NamedCombo.h"
#include "RunRatePanel.h"
#include "SolvePanel.h"

#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>

namespace texstream::app {

namespace {

const int kGridSizes[] = {64, 128, 256, 512, 1024, 2048};

}  // namespace

WaveDemo::WaveDemo(const RunContext& ctx, const WaveSettings& settings)
    : m_settings(settings),
      m_maxTextureSize(ctx.maxTextureSize) {
  rebuild(ctx.options.size.width, ctx.options.size.height);
  const wave::WaveParameters& p = m_wave->parameters();
  if (p.scheme == wave::Scheme::Explicit && m_wave->cfl() > wave::WaveEquation::explicitCflLimit())
    std::cerr << "texstream-wave: warning: the explicit scheme is unstable at c dt / h = " << m_wave->cfl() << " > "
              << wave::WaveEquation::explicitCflLimit() << "; heights will blow up (use --scheme implicit)\n";
}

void WaveDemo::rebuild(int width, int height) {
  wave::WaveParameters p = m_wave ? m_wave->parameters() : m_settings.params;
  if (m_settings.autoDt) p.dt = float(0.5 / (double(std::max(width, height)) + 1.0) / p.speed);
  m_wave.reset();  // free the old textures first: a 2048^2 grid holds five of 16 MiB
  m_wave.emplace(width, height, p, "wave");
  dropStartingRipples();
  frameCamera();
  m_lastParameters = m_wave->parameters();
  m_referenceEnergy = m_wave->energy();
  m_inputSinceStep = true;
}

void WaveDemo::measureHealth(stream::Scalar& out) { m_wave->energy(out); }

HealthMeasure WaveDemo::health() const {
  HealthMeasure h;
  h.quantity = "wave energy";
  h.limit = m_referenceEnergy > 0 ? kRunawayFactor * m_referenceEnergy : std::numeric_limits<double>::infinity();
  h.limitText = "1e4 x the energy after the last input";
  return h;
}

void WaveDemo::restart() { rebuild(m_wave->gridWidth(), m_wave->gridHeight()); }

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
  view.heightScale = m_heightScale;
  view.colorScale = 1.0f / std::max(m_rippleAmplitude, 1e-4f);
  m_renderer.draw(m_wave->height(), m_wave->gridWidth(), m_wave->gridHeight(), float(m_wave->spacing()), view);
}

void WaveDemo::mouse(const MouseInput& in) {
  if (in.rightDown) m_camera.rotate(in.dx, in.dy);
  if (in.scroll != 0) m_camera.zoom(in.scroll);
  if (in.leftPressed) {
    // Ray–plane pick against the rest plane Y = 0.
    if (auto hit = m_camera.pickPlane(in.x, in.y, in.width, in.height)) {
      m_wave->dropRipple(hit->x, hit->z, m_rippleRadius, m_rippleAmplitude);
      m_inputSinceStep = true;
    }
  }
}

void WaveDemo::gui(ShellControls& controls) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  // Fits its content, up to the window's height (then it scrolls).
  ImGui::SetNextWindowSizeConstraints(ImVec2(430, 0), ImVec2(430, std::max(100.0f, ImGui::GetIO().DisplaySize.y - 20)));
  ImGui::Begin("texstream-wave", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::PushItemWidth(230);
  ImGui::TextWrapped("2D wave equation, Krueger & Westermann GPU Gems 2 s44.4. Left click: drop a ripple. "
                     "Right drag: orbit. Scroll: zoom.");
  ImGui::Separator();

  wave::WaveEquation& w = *m_wave;
  wave::WaveParameters p = w.parameters();

  // Grid size: rebuilds the simulation.
  const std::string current = std::to_string(w.gridWidth()) + " x " + std::to_string(w.gridHeight());
  if (ImGui::BeginCombo("grid", current.c_str())) {
    for (int n : kGridSizes) {
      if (n > m_maxTextureSize) continue;
      const std::string label = std::to_string(n) + " x " + std::to_string(n);
      if (ImGui::Selectable(label.c_str(), w.gridWidth() == n && w.gridHeight() == n)) {
        rebuild(n, n);
        ImGui::EndCombo();
        ImGui::PopItemWidth();
        ImGui::End();
        return;  // `w` is gone; the next frame draws the new grid
      }
    }
    ImGui::EndCombo();
  }

  if (namedCombo("scheme", p.scheme, wave::schemeNames())) w.setScheme(p.scheme);

  float speed = p.speed;
  if (ImGui::SliderFloat("wave speed c", &speed, 0.05f, 5.0f, "%.3f", ImGuiSliderFlags_Logarithmic) && speed > 0)
    w.setSpeed(speed);
  float dt = p.dt;
  if (ImGui::SliderFloat("dt", &dt, 1e-5f, 0.1f, "%.2e", ImGuiSliderFlags_Logarithmic) && dt > 0) {
    w.setDt(dt);
    m_settings.autoDt = false;
  }
  const double cfl = w.cfl();
  if (cfl > wave::WaveEquation::explicitCflLimit()) {
    ImGui::TextColored(ImVec4(1.0f, 0.3f, 0.3f, 1.0f), "CFL c dt/h = %.3f > %.3f: explicit scheme unstable", cfl,
                       wave::WaveEquation::explicitCflLimit());
  } else {
    ImGui::Text("CFL c dt/h = %.3f (explicit limit %.3f)", cfl, wave::WaveEquation::explicitCflLimit());
  }
  float damping = p.damping;
  if (ImGui::SliderFloat("damping / step", &damping, 0.0f, 0.05f, "%.4f")) w.setDamping(std::clamp(damping, 0.0f, 0.99f));

  if (ImGui::TreeNodeEx("CG (implicit scheme)", ImGuiTreeNodeFlags_DefaultOpen)) {
    float tol = p.tolerance;
    if (ImGui::SliderFloat("tolerance", &tol, 1e-7f, 1e-2f, "%.1e", ImGuiSliderFlags_Logarithmic) && tol > 0)
      w.setTolerance(tol);
    int cap = p.maxIterations;
    if (ImGui::SliderInt("iteration cap", &cap, 1, 2000, "%d", ImGuiSliderFlags_Logarithmic) && cap >= 1)
      w.setMaxIterations(cap);
    if (p.scheme == wave::Scheme::Implicit && !m_cgIterations.empty()) lastSolvePanel(w.lastSolve(), m_cgIterations);
    ImGui::TreePop();
  }

  backendPanel();

  ImGui::Separator();
  ImGui::SliderFloat("height scale", &m_heightScale, 0.1f, 20.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("ripple radius", &m_rippleRadius, 0.005f, 0.2f, "%.3f", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("ripple height", &m_rippleAmplitude, -0.2f, 0.2f, "%.3f");

  if (ImGui::Button(controls.paused ? "run" : "pause")) controls.paused = !controls.paused;
  ImGui::SameLine();
  if (ImGui::Button("step")) {
    step();
    ++controls.steps;
  }
  ImGui::SameLine();
  if (ImGui::Button("reset")) {
    w.reset();
    dropStartingRipples();
    m_inputSinceStep = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("clear")) w.reset();
  ImGui::SameLine();
  if (ImGui::Button("screenshot")) controls.screenshotRequested = true;
  if (!controls.lastScreenshot.empty()) ImGui::Text("saved %s", controls.lastScreenshot.c_str());

  ImGui::Separator();
  ImGui::Text("step %lld", w.steps());
  ImGui::SameLine();
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
  if (ImGui::CollapsingHeader("GPU time per pass", profiling ? ImGuiTreeNodeFlags_DefaultOpen : 0)) profilerPanel();
  ImGui::PopItemWidth();
  ImGui::End();
}

void WaveDemo::report(nlohmann::json& out) const {
  const wave::WaveParameters& p = m_wave->parameters();
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
    out["cg_tolerance"] = p.tolerance;
    out["cg_max_iterations"] = p.maxIterations;
  }
}

}  // namespace texstream::app
