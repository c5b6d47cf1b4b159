#pragma once
// texstream::fluid scenes: the geometry and boundary conditions of a stable-fluids run
// (Stam 1999 as Bolz et al. 2003, §4.1 set it out: velocity and pressure colocated on an
// nx x ny grid of nodes).
//
// Every node is one of
//  - Fluid: velocity evolves, pressure is solved for;
//  - Solid: a wall, an obstacle, a moving lid or an inlet: its velocity is prescribed (a
//    no-slip wall holds 0, the lid (1, 0), an inlet its inflow velocity); the face between
//    a fluid node and a solid one carries the solid node's normal velocity, so pressure
//    has a Neumann condition there;
//  - Outlet: pressure fixed at zero (Dirichlet), velocity copied from the fluid next to it.
// Units: the domain is (nx - 1) h by (ny - 1) h with h = 1 / (min(nx, ny) - 1) (unit
// height for wide grids, unit width for tall ones), velocities in domain units per unit time.
#include <texstream/stream/EnumNames.h>
#include <string>
#include <string_view>
#include <vector>

namespace texstream::fluid {

enum class Scene {
  Smoke,      ///< closed box, a buoyant smoke source at the bottom; the mouse stirs
  Channel,    ///< Bolz fig. 5: 513 x 129, inlet at two cells per step into a wider part
  Cavity,     ///< lid-driven square cavity, no-slip walls, lid speed 1, Reynolds number Re
  Obstacles,  ///< inflow on the left, outlet on the right, cylinders shedding vortices
};

const char* sceneName(Scene s);
/// The scenes' names, for command lines, panels and reports.
std::span<const stream::EnumName<Scene>> sceneNames();
/// "smoke" | "channel" | "cavity" | "obstacles" (case-insensitive); throws
/// std::invalid_argument naming the value and the choices.
Scene parseScene(std::string_view text);

enum class NodeType { Fluid = 0, Solid = 1, Outlet = 2 };

/// Per-node boundary description (nx ny entries, i fastest).
struct SceneGeometry {
  int nx = 0, ny = 0;
  std::vector<NodeType> type;
  std::vector<float> u, v;  ///< prescribed velocity of solid nodes (domain units / time)
  NodeType at(int i, int j) const { return type[std::size_t(j) * std::size_t(nx) + std::size_t(i)]; }
};

/// Defaults a scene suggests (the command line may override them).
struct SceneDefaults {
  int nx = 0, ny = 0;
  double dt = 0;              ///< time step
  double viscosity = 0;       ///< kinematic viscosity nu (0: none; cavity: 1 / Re)
  double vorticity = 0;       ///< confinement strength epsilon
  double velocityDissipation = 0, dyeDissipation = 0;  ///< per unit time
  double buoyancy = 0;        ///< upward force per unit dye density
};

/// Scene description for an nx x ny grid. `reynolds` is used by the cavity (nu = 1 / Re),
/// `dt` by the scenes whose inflow is given in cells per step (channel: 2 h / dt).
SceneDefaults sceneDefaults(Scene s);
SceneGeometry buildScene(Scene s, int nx, int ny, double dt);
/// Grid spacing of an nx x ny scene: 1 / (min(nx, ny) - 1).
double gridSpacing(int nx, int ny);

}  // namespace texstream::fluid
