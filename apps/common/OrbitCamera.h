#pragma once
// texstream::app::OrbitCamera: the orbit camera the demos share (texstream-wave,
// texstream-smooth): it looks at `target` from `distance` along (yaw, pitch); a drag turns
// it (the scene follows the pointer), scroll zooms, and the ray through a pixel can be
// met with a horizontal plane (the wave demo drops ripples where the user clicks).
#include <glm/glm.hpp>

#include <optional>

namespace texstream::app {

class OrbitCamera {
 public:
  glm::vec3 target{0.0f};
  float yaw = 0.6f;    ///< radians about +Y; 0 looks along -Z
  float pitch = 0.6f;  ///< radians above the XZ plane, kept in [minPitch, maxPitch]
  float minPitch = -1.55f, maxPitch = 1.55f;
  float distance = 3.0f;
  float fovY = 0.75f;  ///< radians
  /// Radius of a sphere about `target` that holds what is looked at: it sets the zoom
  /// range (0.05 to 50 radii) and the near and far planes.
  float radius = 1.0f;

  /// Looks at the sphere (center, boundingRadius) from the distance that frames it; yaw
  /// and pitch are kept. A radius that is not finite and positive counts as 1.
  void frame(glm::vec3 center, float boundingRadius);
  /// A drag of (dx, dy) pixels (y down).
  void rotate(float dxPixels, float dyPixels);
  /// `steps` wheel steps; positive moves closer.
  void zoom(float steps);

  glm::vec3 eye() const;
  glm::mat4 view() const;
  /// Perspective with near and far planes around the sphere of `radius` (its content may
  /// reach 1.5 radii from the target).
  glm::mat4 projection(float aspect) const;

  /// Where the ray through pixel (x, y) (origin top left, viewport width x height) meets
  /// the plane Y = planeY; nullopt when it points away from it or runs parallel to it.
  std::optional<glm::vec3> pickPlane(float x, float y, int width, int height, float planeY = 0.0f) const;
};

}  // namespace texstream::app
