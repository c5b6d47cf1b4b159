#include "OrbitCamera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace texstream::app {

void OrbitCamera::frame(glm::vec3 center, float boundingRadius) {
  target = center;
  radius = boundingRadius > 0 && std::isfinite(boundingRadius) ? boundingRadius : 1.0f;
  distance = 1.15f * radius / std::sin(0.5f * fovY);
}

void OrbitCamera::rotate(float dxPixels, float dyPixels) {
  // Dragging right moves the eye left (yaw down), dragging down raises it: the scene
  // turns with the pointer.
  yaw -= dxPixels * 0.008f;
  pitch = std::clamp(pitch + dyPixels * 0.008f, minPitch, maxPitch);
}

void OrbitCamera::zoom(float steps) {
  distance = std::clamp(distance * std::pow(0.9f, steps), 0.05f * radius, 50.0f * radius);
}

glm::vec3 OrbitCamera::eye() const {
  const float c = std::cos(pitch);
  return target + distance * glm::vec3(c * std::sin(yaw), std::sin(pitch), c * std::cos(yaw));
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 1, 0)); }

glm::mat4 OrbitCamera::projection(float aspect) const {
  const float nearPlane = std::max(distance - 1.5f * radius, 0.005f * radius);
  return glm::perspective(fovY, aspect, nearPlane, distance + 1.5f * radius);
}

std::optional<glm::vec3> OrbitCamera::pickPlane(float x, float y, int width, int height, float planeY) const {
  if (width <= 0 || height <= 0) return std::nullopt;
  const glm::mat4 inv = glm::inverse(projection(float(width) / float(height)) * view());
  const float nx = 2.0f * (x + 0.5f) / float(width) - 1.0f;
  const float ny = 1.0f - 2.0f * (y + 0.5f) / float(height);
  const glm::vec4 nearP = inv * glm::vec4(nx, ny, -1.0f, 1.0f);
  const glm::vec4 farP = inv * glm::vec4(nx, ny, 1.0f, 1.0f);
  const glm::vec3 a = glm::vec3(nearP) / nearP.w, b = glm::vec3(farP) / farP.w;
  const glm::vec3 dir = b - a;
  if (std::abs(dir.y) < 1e-9f) return std::nullopt;
  const float s = (planeY - a.y) / dir.y;
  if (s < 0.0f) return std::nullopt;
  return a + s * dir;
}

}  // namespace texstream::app
