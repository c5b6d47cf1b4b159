#pragma once
// Draws an LSCM parameterization straight from the GPU: the mesh in 3D with a
// checkerboard through its (u, v), and the (u, v) plane itself with the same checkerboard,
// flipped triangles in red and the two pins as squares. The (u, v) come from the solver's
// vector texture (geometry::Lscm::uv(): vertex v in texel v / 2, channels xy or zw); no
// vertex buffers: vertex k of triangle t (gl_VertexID = 3 t + k) fetches its indices from
// the triangle texture and its position from the position texture, both uploaded once.
#include "SurfaceProgram.h"

#include <texstream/stream/Vector.h>

#include <array>

namespace texstream::geometry {
struct Mesh;
}

namespace texstream::app {

/// The camera is the 3D view's.
struct ParamView : CameraView {
  /// (u, v) -> clip coordinates of the plane view: clip = uv * scale + offset.
  glm::vec2 uvScale{1.0f}, uvOffset{0.0f};
  /// Checker squares per unit of (u, v).
  float checkerFrequency = 10.0f;
  std::array<glm::vec2, 2> pins{};
  int activePin = -1;  ///< drawn highlighted (being dragged)
  bool wireframe = true;
};

class ParamRenderer {
 public:
  explicit ParamRenderer(const geometry::Mesh& mesh);
  /// The mesh in 3D (depth-tested) into the current viewport.
  void drawSurface(const stream::Vector& uv, const ParamView& view);
  /// The (u, v) plane and the pins into the current viewport.
  void drawPlane(const stream::Vector& uv, const ParamView& view);

 private:
  /// SurfaceProgram::begin with the map's uniforms, for `mode` (0: surface, 1: plane).
  void begin(const stream::Vector& uv, const ParamView& view, int mode);

  SurfaceProgram m_surface;
  stream::Vector m_positions, m_triangles;
  int m_triangleCount = 0;
};

}  // namespace texstream::app
