// The pressure projection of Stam 1999 on node textures with Jacobi sweeps (NodeProjection.h).
#include <texstream/fluid/NodeProjection.h>

#include <texstream/gl/Error.h>
#include <texstream/stream/Pass.h>

#include <string>

namespace texstream::fluid {

namespace {

using stream::GridField;
using stream::Pass;

void requireSameGrid(const char* what, const GridField& a, const GridField& b) {
  if (!a.hasSize(b.nx(), b.ny()))
    throw gl::Error(std::string(what) + ": \"" + a.name() + "\" is " + std::to_string(a.nx()) + "x" +
                    std::to_string(a.ny()) + " nodes, \"" + b.name() + "\" " + std::to_string(b.nx()) + "x" +
                    std::to_string(b.ny()));
}

}  // namespace

void nodeDivergence(const GridField& velocity, const GridField& boundary, float scale, GridField& out) {
  requireSameGrid("fluid::nodeDivergence", velocity, boundary);
  requireSameGrid("fluid::nodeDivergence", out, boundary);
  Pass("fluid/node_divergence")
      .input("u_velocity", velocity)
      .input("u_boundary", boundary)
      .uniform("u_scale", scale)
      .output(out)
      .label("fluid divergence")
      .run();
}

void jacobiPressureSweep(const GridField& phi, const GridField& rhs, const GridField& boundary, float omega,
                         GridField& out) {
  requireSameGrid("fluid::jacobiPressureSweep", phi, boundary);
  requireSameGrid("fluid::jacobiPressureSweep", rhs, boundary);
  requireSameGrid("fluid::jacobiPressureSweep", out, boundary);
  Pass("fluid/jacobi_pressure")
      .input("u_phi", phi)
      .input("u_rhs", rhs)
      .input("u_boundary", boundary)
      .uniform("u_omega", omega)
      .output(out)
      .label("fluid jacobi")
      .run();
}

void subtractNodeGradient(const GridField& velocity, const GridField& phi, const GridField& boundary, GridField& out) {
  requireSameGrid("fluid::subtractNodeGradient", velocity, boundary);
  requireSameGrid("fluid::subtractNodeGradient", phi, boundary);
  requireSameGrid("fluid::subtractNodeGradient", out, boundary);
  Pass("fluid/node_gradient_subtract")
      .input("u_velocity", velocity)
      .input("u_phi", phi)
      .input("u_boundary", boundary)
      .output(out)
      .label("fluid gradient")
      .run();
}

}  // namespace texstream::fluid
