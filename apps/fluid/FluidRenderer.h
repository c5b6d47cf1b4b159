#pragma once
// Draws the fluid's node fields (fluid::FluidSolver::fieldImage) straight from their
// textures:
//  - dye in one of four colourings (FluidSettings.h's DyeColors): its own colour, one
//    colour by density, or a temperature ramp (black, purple, red, orange, yellow, white)
//    by |vorticity| or by speed with the density as brightness; optionally shaded by its
//    gradient, so folds show in relief;
//  - velocity as hue (direction) and brightness (speed); pressure, divergence and vorticity
//    with a diverging blue-white-red map; each scaled by its largest magnitude (a GPU
//    Scalar, so nothing is read back while drawing; range() has it a few frames later
//    for the legend);
//  - solid nodes hatched grey with a light rim along the fluid, moving solids (a lid, an
//    inlet) amber, outlets green;
//  - velocity arrows over it (a grid of them, sampled from the velocity texture in the
//    vertex shader), and the display particles as points (Bolz fig. 5).
#include "FluidSettings.h"

#include <texstream/fluid/FluidSolver.h>
#include <texstream/gl/Buffer.h>
#include <texstream/gl/Program.h>
#include <texstream/stream/GridField.h>
#include <texstream/stream/Scalar.h>

#include <optional>

namespace texstream::app {

class FluidRenderer {
 public:
  FluidRenderer();
  /// Draws the field `settings` chooses into the bound framebuffer's current viewport
  /// (which the caller fits to the grid's aspect ratio).
  void draw(fluid::FluidSolver& solver, const FluidSettings& settings);

  /// The largest magnitude the colour map of the last draw stood for (of the field, or of
  /// the ramp's quantity), once read back; nullopt where it has none (plain dye) or no
  /// value has landed yet.
  std::optional<float> range();

 private:
  gl::Program m_field, m_points, m_arrows;
  gl::VertexArray m_vao;
  stream::GridField m_image, m_aux, m_velocity;
  stream::Scalar m_scale, m_auxScale, m_velocityScale;
  stream::ScalarReadback m_readback;
  bool m_hasRange = false;
  std::optional<float> m_range;
  std::optional<float> m_fixedRange;  ///< the half-float mode's scale (no reduction to read)
};

}  // namespace texstream::app
