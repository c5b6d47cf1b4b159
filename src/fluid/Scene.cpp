#include <texstream/fluid/Scene.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace texstream::fluid {

namespace {
constexpr stream::EnumName<Scene> kSceneNames[] = {{Scene::Smoke, "smoke", "smoke"},
                                                   {Scene::Channel, "channel", "channel (Bolz fig. 5)"},
                                                   {Scene::Cavity, "cavity", "lid-driven cavity"},
                                                   {Scene::Obstacles, "obstacles", "obstacles"}};
}  // namespace

std::span<const stream::EnumName<Scene>> sceneNames() { return kSceneNames; }

const char* sceneName(Scene s) { return stream::nameOf(sceneNames(), s); }

Scene parseScene(std::string_view text) {
  if (auto s = stream::findByName(sceneNames(), text)) return *s;
  throw std::invalid_argument("unknown scene \"" + std::string(text) + "\" (scenes: " + stream::nameList(sceneNames()) + ")");
}

double gridSpacing(int nx, int ny) { return 1.0 / double(std::min(nx, ny) - 1); }

SceneDefaults sceneDefaults(Scene s) {
  SceneDefaults d;
  switch (s) {
    case Scene::Smoke:
      d = {.nx = 256, .ny = 256, .dt = 1.0 / 60.0, .viscosity = 0.0, .vorticity = 0.3, .velocityDissipation = 0.0,
           .dyeDissipation = 0.05, .buoyancy = 1.0};
      break;
    case Scene::Channel:
      // Bolz fig. 5: 513 x 129, no viscosity (numerical diffusion suffices, §4.3).
      d = {.nx = 513, .ny = 129, .dt = 0.01, .viscosity = 0.0, .vorticity = 0.0, .velocityDissipation = 0.0,
           .dyeDissipation = 0.0, .buoyancy = 0.0};
      break;
    case Scene::Cavity:
      d = {.nx = 129, .ny = 129, .dt = 0.005, .viscosity = 0.01, .vorticity = 0.0, .velocityDissipation = 0.0,
           .dyeDissipation = 0.0, .buoyancy = 0.0};
      break;
    case Scene::Obstacles:
      d = {.nx = 385, .ny = 129, .dt = 0.004, .viscosity = 0.0, .vorticity = 0.05, .velocityDissipation = 0.0,
           .dyeDissipation = 0.0, .buoyancy = 0.0};
      break;
  }
  return d;
}

SceneGeometry buildScene(Scene s, int nx, int ny, double dt) {
  if (nx < 8 || ny < 8)
    throw std::invalid_argument("fluid scene " + std::string(sceneName(s)) + ": the grid needs at least 8x8 nodes (got " +
                                std::to_string(nx) + "x" + std::to_string(ny) + ")");
  if (!(dt > 0) || !std::isfinite(dt))
    throw std::invalid_argument("fluid scene " + std::string(sceneName(s)) + ": dt must be finite and > 0");
  SceneGeometry g;
  g.nx = nx;
  g.ny = ny;
  const std::size_t n = std::size_t(nx) * std::size_t(ny);
  g.type.assign(n, NodeType::Fluid);
  g.u.assign(n, 0.0f);
  g.v.assign(n, 0.0f);
  const double h = gridSpacing(nx, ny);
  auto set = [&](int i, int j, NodeType t, double u = 0.0, double v = 0.0) {
    const std::size_t k = std::size_t(j) * std::size_t(nx) + std::size_t(i);
    g.type[k] = t;
    g.u[k] = float(u);
    g.v[k] = float(v);
  };
  // No-slip walls all around by default.
  for (int i = 0; i < nx; ++i) {
    set(i, 0, NodeType::Solid);
    set(i, ny - 1, NodeType::Solid);
  }
  for (int j = 0; j < ny; ++j) {
    set(0, j, NodeType::Solid);
    set(nx - 1, j, NodeType::Solid);
  }
  switch (s) {
    case Scene::Smoke: break;
    case Scene::Cavity:
      // The lid: the top row moves at speed 1 (the corners stay at rest).
      for (int i = 1; i + 1 < nx; ++i) set(i, ny - 1, NodeType::Solid, 1.0, 0.0);
      break;
    case Scene::Channel: {
      // A narrow inlet section (the middle third of the height, the first eighth of the
      // length) opens into the wide part; the inlet pushes two cells per step.
      const double inflow = 2.0 * h / dt;
      const int lengthIn = std::max(4, (nx - 1) / 8);
      const int lo = (ny - 1) / 3, hi = ny - 1 - (ny - 1) / 3;
      for (int j = 1; j + 1 < ny; ++j)
        for (int i = 1; i <= lengthIn; ++i)
          if (j < lo || j > hi) set(i, j, NodeType::Solid);
      for (int j = lo; j <= hi; ++j) set(0, j, NodeType::Solid, inflow, 0.0);
      for (int j = 1; j + 1 < ny; ++j) set(nx - 1, j, NodeType::Outlet);
      break;
    }
    case Scene::Obstacles: {
      for (int j = 1; j + 1 < ny; ++j) {
        set(0, j, NodeType::Solid, 1.0, 0.0);
        set(nx - 1, j, NodeType::Outlet);
      }
      // Three cylinders, in domain units (height 1).
      const double cx[3] = {0.45, 1.0, 1.0}, cy[3] = {0.52, 0.28, 0.76}, r = 0.085;
      for (int j = 1; j + 1 < ny; ++j)
        for (int i = 1; i + 1 < nx; ++i)
          for (int c = 0; c < 3; ++c) {
            const double x = i * h, y = j * h;
            if ((x - cx[c]) * (x - cx[c]) + (y - cy[c]) * (y - cy[c]) <= r * r) set(i, j, NodeType::Solid);
          }
      break;
    }
  }
  return g;
}

}  // namespace texstream::fluid
