#include "MeshCamera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace texstream::app {

void MeshCamera::frame(float boundingRadius) {
  radius = boundingRadius > 0 && std::isfinite(boundingRadius) ? boundingRadius : 1.0f;
  distance = 1.15f * radius / std::sin(0.5f * fovY);
}

void MeshCamera::rotate(float dxPixels, float dyPixels) {
  yaw -= dxPixels * 0.008f;
  pitch = std::clamp(pitch + dyPixels * 0.008f, -1.55f, 1.55f);
}

void MeshCamera::zoom(float steps) {
  distance = std::clamp(distance * std::pow(0.9f, steps), 0.05f * radius, 50.0f * radius);
}

glm::vec3 MeshCamera::eye() const {
  const float c = std::cos(pitch);
  return distance * glm::vec3(c * std::sin(yaw), std::sin(pitch), c * std::cos(yaw));
}

glm::mat4 MeshCamera::view() const { return glm::lookAt(eye(), glm::vec3(0.0f), glm::vec3(0, 1, 0)); }

glm::mat4 MeshCamera::projection(float aspect) const {
  // The mesh fits the sphere of `radius` about the origin (noise and flow only shrink it).
  const float nearPlane = std::max(distance - 1.5f * radius, 0.005f * radius);
  return glm::perspective(fovY, aspect, nearPlane, distance + 1.5f * radius);
}

}  // namespace texstream::app
