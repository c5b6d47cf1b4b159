#pragma once
// An orbit camera around a target point (right drag turns, scroll zooms) and the pick ray
// through a pixel, for dropping ripples with the mouse.
#include <glm/glm.hpp>

#include <optional>

namespace texstream::app {

class OrbitCamera {
 public:
  glm::vec3 target{0.5f, 0.0f, 0.5f};
  float yaw = 0.6f;     ///< radians about +Y
  float pitch = 0.75f;  ///< radians above the XZ plane, in (0.05, 1.55)
  float distance = 1.6f;
  float fovY = 0.8f;    ///< radians

  void rotate(float dxPixels, float dyPixels);
  /// `steps` wheel steps; positive moves closer.
  void zoom(float steps);

  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;

  /// Where the ray through pixel (x, y) (origin top left, viewport w x h) meets the plane
  /// Y = planeY; nullopt when it points away from it.
  std::optional<glm::vec3> pickPlane(float x, float y, int width, int height, float planeY = 0.0f) const;
};

}  // namespace texstream::app
