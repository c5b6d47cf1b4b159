#pragma once
// Draws a W x H height field straight from a texstream vector's texture (Krüger &
// Westermann §44.4 render the solution vector as a height field): the vertex shader
// fetches element i = j W + i of the vector from texel i / 4, channel i % 4, at
// (t % texWidth, t / texWidth) (stream/Layout.h), so no height ever passes through the CPU.
// The mesh has no vertex buffers: one triangle strip per grid row, instanced, positions
// from gl_VertexID / gl_InstanceID. A zero rim (the Dirichlet boundary) frames the grid;
// normals come from the four neighbour heights.
#include "SurfaceProgram.h"

namespace texstream::stream {
class Vector;
}

namespace texstream::app {

struct HeightFieldView : CameraView {
  float heightScale = 1.0f;  ///< vertical exaggeration
  float colorScale = 10.0f;  ///< 1 / height mapped to full colour range
};

class HeightFieldRenderer {
 public:
  HeightFieldRenderer();

  /// Draws `heights` (gridWidth x gridHeight nodes, spacing h, node (i, j) at
  /// ((i + 1) h, height, (j + 1) h)) into the bound framebuffer with depth testing.
  void draw(const stream::Vector& heights, int gridWidth, int gridHeight, float spacing, const HeightFieldView& view);

 private:
  SurfaceProgram m_surface;
};

}  // namespace texstream::app
