#pragma once
// An orbit camera around a mesh centred at the origin: drag turns, scroll zooms.
#include <glm/glm.hpp>

namespace texstream::app {

class MeshCamera {
 public:
  float yaw = 0.7f;     ///< radians about +Y
  float pitch = 0.45f;  ///< radians above the XZ plane, in [-1.55, 1.55]
  float distance = 3.0f;
  float fovY = 0.7f;    ///< radians
  /// Radius of the bounding sphere of what is looked at (sets the zoom range and the
  /// near/far planes).
  float radius = 1.0f;

  /// Looks at a sphere of this radius from a distance that frames it.
  void frame(float boundingRadius);
  void rotate(float dxPixels, float dyPixels);
  /// `steps` wheel steps; positive moves closer.
  void zoom(float steps);

  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
};

}  // namespace texstream::app
