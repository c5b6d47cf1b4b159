#pragma once
// Draws a CurvatureFlow's mesh straight from its GPU textures: no vertex buffers. Vertex
// k of triangle t (gl_VertexID = 3 t + k) fetches the triangle's vertex indices from the
// triangle texture, then that vertex's position (x, y, z) and shading (normal, mean
// curvature H, computed on the GPU by CurvatureFlow::updateShading) from the vertex
// textures. Optional colour by mean curvature (blue concave, red convex) and a wireframe
// drawn in the fragment shader from barycentric coordinates.
#include "SurfaceProgram.h"

namespace texstream::geometry {
class CurvatureFlow;
}

namespace texstream::app {

struct MeshView : CameraView {
  bool colorByCurvature = true;
  /// H * curvatureScale = +-1 is full red / blue.
  float curvatureScale = 1.0f;
  bool wireframe = false;
};

class MeshRenderer {
 public:
  MeshRenderer();
  /// Draws into the bound framebuffer with depth testing (the caller cleared it).
  void draw(const geometry::CurvatureFlow& flow, const MeshView& view);

 private:
  SurfaceProgram m_surface;
};

}  // namespace texstream::app
