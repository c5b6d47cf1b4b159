#include "Fluid3DDemo.h"

#include "Column.h"
#include "Panel.h"
#include "ParameterEdit.h"
#include "RunRatePanel.h"
#include "SolvePanel.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/MatrixMarket.h>
#include <texstream/linalg/SystemExport.h>
#include <texstream/stream/GridLayout3D.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/text/FloatChars.h>

#include <glad/gl.h>
// After glad: GLFW must not include the system GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <glm/gtc/matrix_transform.hpp>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>

namespace texstream::app {

namespace {

constexpr float kYaw = 0.55f, kPitch = 0.38f;

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

}  // namespace

Fluid3DDemo::Fluid3DDemo(const RunContext& /*ctx*/, const Fluid3DSettings& settings) : SettingsDemo(settings) {
  const fluid::FluidParameters3D& p = m_settings.params;
  if (p.nx > 0) {
    // The velocity, a texel a cell's -x, -y and -z faces and one more a side, is the widest
    // flat texture the solver makes: a grid it cannot hold is a value this GPU cannot run.
    try {
      stream::GridLayout3D(p.nx + 1, p.ny + 1, p.nz + 1, stream::GridLayout3D::Packing::OneCellPerTexel,
                           "fluid3d (the velocity: a texel a face)");
    } catch (const gl::Error& e) {
      throw UsageError("--size: invalid value \"" + sizeText() + "\": " + e.what());
    }
  }
  m_camera.yaw = kYaw;
  m_camera.pitch = kPitch;
  rebuild();
}

Fluid3DDemo::~Fluid3DDemo() {
  if (m_settings.exportDirectory.empty() || !m_solver) return;
  try {
    if (m_solver->steps() == 0) {
      std::cerr << "texstream-fluid3d: --export-system: no step ran, so no pressure system was built; nothing written\n";
      return;
    }
    const fluid::PressureSystem3D system = m_solver->pressureSystem();
    const std::string comment = "texstream-fluid3d: the pressure projection of step " +
                                std::to_string(m_solver->steps()) + " (" + sizeText() + " cells)";
    const std::vector<std::vector<double>> rhs{system.b};
    for (const std::string& path :
         linalg::exportSystem(system.A, rhs, m_settings.exportDirectory,
                              m_settings.exportPetsc ? linalg::SystemFileFormat::Petsc
                                                     : linalg::SystemFileFormat::MatrixMarket,
                              comment))
      std::cerr << "texstream-fluid3d: wrote " << path << "\n";
    const std::string path = (std::filesystem::path(m_settings.exportDirectory) / "x_texstream.mtx").string();
    linalg::writeMatrixMarketVector(path, system.x, comment + ", texstream's solution: " +
                                                        m_solver->lastStats().solverMessage);
    std::cerr << "texstream-fluid3d: wrote " << path << " (" << system.A.rows << " unknowns)\n";
  } catch (const std::exception& e) {
    std::cerr << "texstream-fluid3d: error: --export-system: " << e.what() << "\n";
  }
}

std::string Fluid3DDemo::sizeText() const {
  const fluid::FluidParameters3D& p = m_settings.params;
  return std::to_string(p.nx) + "x" + std::to_string(p.ny) + "x" + std::to_string(p.nz);
}

void Fluid3DDemo::rebuild() {
  auto solver = std::make_unique<fluid::FluidSolver3D>(m_settings.params);
  const bool sameGrid = m_solver && m_solver->nx() == solver->nx() && m_solver->ny() == solver->ny() &&
                        m_solver->nz() == solver->nz();
  m_solver = std::move(solver);
  m_settings.params = m_solver->parameters();
  m_renderer.fieldsChanged();
  m_initialVolume = 0;
  if (!sameGrid) frameCamera();
}

glm::mat4 Fluid3DDemo::simToWorld() const {
  // Sim coordinates (+z up) to the camera's world (+y up), the domain's centre at the origin.
  const double h = m_solver->h();
  const glm::vec3 centre(float(0.5 * m_solver->nx() * h), float(0.5 * m_solver->ny() * h), float(0.5 * m_solver->nz() * h));
  glm::mat4 axes(1.0f);
  axes[1] = glm::vec4(0.0f, 0.0f, -1.0f, 0.0f);  // sim +y -> world -z (away from the default eye)
  axes[2] = glm::vec4(0.0f, 1.0f, 0.0f, 0.0f);   // sim +z -> world +y
  return axes * glm::translate(glm::mat4(1.0f), -centre);
}

void Fluid3DDemo::frameCamera() {
  const double h = m_solver->h();
  const glm::vec3 extent(float(m_solver->nx() * h), float(m_solver->ny() * h), float(m_solver->nz() * h));
  m_camera.frame(glm::vec3(0.0f), 0.5f * glm::length(extent));
  m_camera.distance *= 0.85f;  // the box's corners may leave the view a little: it fills more of it
}

void Fluid3DDemo::step() {
  m_solver->step();
  m_renderer.fieldsChanged();
  const fluid::StepStats3D& s = m_solver->lastStats();
  m_steps.push_back(s);
  if (m_solver->liquid()) {
    m_volume.push_back(s.liquidVolume);
    if (m_initialVolume <= 0) m_initialVolume = s.liquidVolume;
  }
  const fluid::FluidParameters3D& p = m_solver->parameters();
  if (p.statistics && p.pressure.tolerance > 0 && s.residual > p.pressure.tolerance)
    m_unconverged.push_back({{"step", m_solver->steps()}, {"residual", s.residual}, {"iterations", s.iterations},
                             {"message", s.solverMessage}});
  m_passMs.record();
  if (!s.finite && p.statistics)
    std::cerr << "texstream-fluid3d: step " << m_solver->steps() << ": the velocity holds NaN or Inf\n";
}

void Fluid3DDemo::render(int width, int height) {
  glClearColor(0.08f, 0.08f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  m_renderer.draw(*m_solver, m_settings, m_camera, simToWorld(), width, height);
}

void Fluid3DDemo::mouse(const MouseInput& in) {
  if (in.leftDown || in.rightDown) m_camera.rotate(in.dx, in.dy);
  if (in.scroll != 0) m_camera.zoom(in.scroll);
}

void Fluid3DDemo::overlay(ShellControls& /*controls*/) {
  if (!ImGui::GetIO().WantCaptureKeyboard && ImGui::IsKeyPressed(GLFW_KEY_C, false)) {
    m_camera.yaw = kYaw;
    m_camera.pitch = kPitch;
    frameCamera();
  }
}

HealthMeasure Fluid3DDemo::measureHealth(stream::Scalar& out) {
  stream::dot(m_solver->velocity(), m_solver->velocity(), out);
  const double faces = 3.0 * double(m_solver->nx() + 1) * double(m_solver->ny() + 1) * double(m_solver->nz() + 1);
  return runawaySpeedMeasure(faces, "face", kRunawayCellsPerStep, m_solver->h(), m_solver->dt());
}

void Fluid3DDemo::restart() {
  m_solver->reset();
  m_renderer.fieldsChanged();
  m_initialVolume = 0;
}

void Fluid3DDemo::gui(ShellControls& controls) {
  fluid::FluidParameters3D& p = m_settings.params;
  const bool liquid = fluid::isLiquid(p.scene);
  bool changed = false, rebuildNeeded = false;

  wrappedText(std::string(fluid::scene3DName(p.scene)) + " " + std::to_string(m_solver->nx()) + "x" +
              std::to_string(m_solver->ny()) + "x" + std::to_string(m_solver->nz()) + ", step " +
              std::to_string(m_solver->steps()) + ", t = " + number(m_solver->time()));
  runRatePanel(controls);
  if (ImGui::Button(controls.paused ? "run (space)" : "pause (space)")) controls.paused = !controls.paused;
  if (flowButton("reset (R)")) restart();
  if (flowButton("camera (C)")) {
    m_camera.yaw = kYaw;
    m_camera.pitch = kPitch;
    frameCamera();
  }
  if (flowButton("screenshot (S)")) controls.screenshotRequested = true;

  if (section("scene")) {
    if (m_table.widget("scene")) {
      // A new scene starts from its own defaults.
      p.nx = p.ny = p.nz = 0;
      p.dt = 0, p.vorticity = -1, p.buoyancy = -1, p.densityWeight = -1, p.dissipation = -1;
      rebuildNeeded = true;
    }
    if (m_table.widget("size")) p.dt = 0, rebuildNeeded = true;
    for (const char* name : {"dt", "advection", "vorticity"}) changed |= m_table.widget(name);
    if (liquid) {
      for (const char* name : {"gravity", "volume-correction"}) changed |= m_table.widget(name);
    } else {
      for (const char* name : {"buoyancy", "density-weight", "dissipation", "open-top"}) changed |= m_table.widget(name);
      if (p.scene == fluid::Scene3D::SmokeSphere) changed |= m_table.widget("moving-sphere");
    }
  }

  if (section("pressure projection")) {
    changed |= m_table.widget("precond");
    changed |= m_table.widget("tolerance");
    changed |= m_table.widget(p.pressure.tolerance > 0 ? "max-iterations" : "iterations");
    changed |= m_table.widget("statistics");
    if (p.statistics && !m_steps.empty()) {
      const fluid::StepStats3D& s = m_solver->lastStats();
      wrappedText("last projection: " + std::to_string(s.iterations) + " CG iterations, |r|/|b| = " + number(s.residual));
      if (p.pressure.tolerance > 0 && s.residual > p.pressure.tolerance) {
        // Short of the tolerance: the solver's own account.
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.3f, 1.0f));
        wrappedText(s.solverMessage);
        ImGui::PopStyleColor();
      }
      const std::vector<float> its = plotTail(column(m_steps, &fluid::StepStats3D::iterations));
      ImGui::PlotLines("CG iterations\n(per step)", its.data(), int(its.size()), 0, nullptr, 0.0f, FLT_MAX,
                       ImVec2(0, 50));
      checkLastItem("CG iterations");
      std::vector<float> logRes;
      for (const fluid::StepStats3D& step : m_steps) logRes.push_back(float(std::log10(std::max(step.residual, 1e-12))));
      logRes = plotTail(logRes);
      ImGui::PlotLines("log10 |r|/|b|\n(per step)", logRes.data(), int(logRes.size()), 0, nullptr, FLT_MAX, FLT_MAX,
                       ImVec2(0, 50));
      checkLastItem("log10 |r|/|b|");
      if (!m_unconverged.empty())
        ImGui::Text("%zu of %zu steps short of the tolerance", m_unconverged.size(), m_steps.size());
    }
  }

  if (section("statistics")) {
    const fluid::StepStats3D& s = m_solver->lastStats();
    if (!p.statistics) {
      ImGui::TextDisabled("off: turn statistics on to read them back");
    } else if (m_steps.empty()) {
      ImGui::TextDisabled("no step yet");
    } else {
      wrappedText("RMS divergence: " + number(s.divergenceBefore) + " -> " + number(s.divergenceAfter) +
                  " after the projection");
      wrappedText("largest speed " + number(s.maxSpeed) + " (" + number(s.maxSpeed * m_solver->dt() / m_solver->h()) +
                  " cells a step)");
      if (m_solver->liquid() && m_initialVolume > 0) {
        const double change = 100.0 * (s.liquidVolume - m_initialVolume) / m_initialVolume;
        char line[160];
        std::snprintf(line, sizeof line, "liquid volume %.5g (%+.3f%% since the first step)", s.liquidVolume, change);
        wrappedText(line);
      }
    }
  }

  if (section("display")) {
    if (!liquid) {
      for (const char* name : {"shadows", "fire", "opacity", "smoke-color"}) m_table.widget(name);
    } else {
      m_table.widget("liquid-color");
    }
    m_table.widget("ray-step");
    m_table.widget("obstacles");
    m_table.widget("box");
    const std::array<int, 3> v = m_renderer.volumeSize();
    if (v[0] != m_solver->nx() || v[1] != m_solver->ny() || v[2] != m_solver->nz())
      wrappedText("drawn from a " + std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]) +
                  " volume (the GPU's 3D texture limit)");
  }

  if (section("backend", false)) backendPanel();
  if (section("GPU time per pass", stream::Runtime::current().profiler().enabled())) profilerPanel();

  // The solids may have changed (the moving sphere).
  if (applyParameterEdit("texstream-fluid3d", m_solver, p, changed, rebuildNeeded, [this] { rebuild(); }))
    m_renderer.fieldsChanged();
}

void Fluid3DDemo::report(nlohmann::json& out) const {
  const fluid::FluidParameters3D& p = m_solver->parameters();
  out["size"] = {m_solver->nx(), m_solver->ny(), m_solver->nz()};
  out["scene"] = fluid::scene3DName(p.scene);
  out["liquid"] = m_solver->liquid();
  out["dt"] = m_solver->dt();
  out["h"] = m_solver->h();
  out["time"] = m_solver->time();
  out["advection"] = fluid::advectionName(p.advection);
  out["precond"] = solvers::pressurePreconditionerName(p.preconditioner);
  out["tolerance"] = std::strtod(text::shortestText(p.pressure.tolerance).c_str(), nullptr);  // 1e-04, not 9.9999997e-05
  out["iterations_per_step"] = p.iterations;
  out["max_iterations"] = p.pressure.maxIterations.value_or(0);
  out["statistics"] = p.statistics;
  if (m_solver->liquid()) out["volume_correction"] = p.volumeCorrection;
  out["settings"] = nlohmann::json(m_table.toJson());
  out["divergence_before"] = column(m_steps, &fluid::StepStats3D::divergenceBefore);
  out["divergence_after"] = column(m_steps, &fluid::StepStats3D::divergenceAfter);
  out["residual"] = column(m_steps, &fluid::StepStats3D::residual);
  out["solver_iterations"] = column(m_steps, &fluid::StepStats3D::iterations);
  out["max_speed"] = column(m_steps, &fluid::StepStats3D::maxSpeed);
  if (m_solver->liquid()) {
    out["volume"] = m_volume;
    if (m_initialVolume > 0) out["volume_change"] = (m_solver->lastStats().liquidVolume - m_initialVolume) / m_initialVolume;
  }
  out["unconverged_steps"] = m_unconverged.empty() ? nlohmann::json::array() : nlohmann::json(m_unconverged);
  out["pass_ms"] = m_passMs.json();
  const std::array<int, 3> v = m_renderer.volumeSize();
  out["render_volume"] = {v[0], v[1], v[2]};
  out["camera"] = {{"yaw", m_camera.yaw}, {"pitch", m_camera.pitch}, {"distance", m_camera.distance}};
}

}  // namespace texstream::app
