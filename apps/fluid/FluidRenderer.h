#pragma once
// Draws the fluid's node fields (fluid::FluidSolver::fieldImage) straight from their
// textures: dye as colour, velocity as hue (direction) and brightness (speed), pressure,
// divergence and vorticity with a diverging blue-white-red map scaled by their largest
// magnitude (a GPU Scalar, so nothing is read back), solids in grey, and the display
// particles as points fetched from their texture in the vertex shader (Bolz fig. 5).
#include <texstream/fluid/FluidSolver.h>
#include <texstream/gl/Buffer.h>
#include <texstream/gl/Program.h>
#include <texstream/stream/GridField.h>
#include <texstream/stream/Scalar.h>

namespace texstream::app {

class FluidRenderer {
 public:
  FluidRenderer();
  /// Draws `field` of `solver` into the bound framebuffer's current viewport (which the
  /// caller fits to the grid's aspect ratio); particles on top when asked.
  void draw(fluid::FluidSolver& solver, fluid::Field field, bool particles);

 private:
  gl::Program m_field, m_points;
  gl::VertexArray m_vao;
  stream::GridField m_image;
  stream::Scalar m_scale;
};

}  // namespace texstream::app
