#include "SurfaceProgram.h"

#include <texstream/stream/KernelCache.h>

#include <glad/gl.h>
#include <glm/gtc/type_ptr.hpp>

namespace texstream::app {

namespace {

const char* kFragmentHelpers = R"glsl(
float wireframeEdge(vec3 barycentric) {
  vec3 d = barycentric / max(fwidth(barycentric), vec3(1e-6));
  return 1.0 - clamp(min(min(d.x, d.y), d.z) - 0.5, 0.0, 1.0);
}
)glsl";

}  // namespace

SurfaceProgram::SurfaceProgram(const std::string& name, gl::ShaderPiece vertex, gl::ShaderPiece fragment)
    : m_program(stream::rasterProgram(name, {std::move(vertex)},
                                      {{"apps/common/SurfaceProgram.cpp", kFragmentHelpers, 12}, std::move(fragment)})),
      m_vao(name) {}

void SurfaceProgram::begin(const CameraView& camera,
                           std::initializer_list<std::pair<const char*, unsigned int>> textures, bool depthTest) {
  if (depthTest) {
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
  } else {
    glDisable(GL_DEPTH_TEST);
  }
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glUseProgram(m_program.id());
  m_textures = 0;
  for (const auto& [sampler, texture] : textures) {
    glActiveTexture(GL_TEXTURE0 + GLenum(m_textures));
    glBindTexture(GL_TEXTURE_2D, texture);
    glUniform1i(m_program.uniformLocation(sampler), m_textures);
    ++m_textures;
  }
  glUniformMatrix4fv(m_program.uniformLocation("u_viewProjection"), 1, GL_FALSE, glm::value_ptr(camera.viewProjection));
  glUniform3f(m_program.uniformLocation("u_eye"), camera.eye.x, camera.eye.y, camera.eye.z);
  glBindVertexArray(m_vao.id());
}

void SurfaceProgram::end() {
  glBindVertexArray(0);
  for (int k = m_textures - 1; k >= 0; --k) {
    glActiveTexture(GL_TEXTURE0 + GLenum(k));
    glBindTexture(GL_TEXTURE_2D, 0);
  }
  m_textures = 0;
  glUseProgram(0);
  glDisable(GL_DEPTH_TEST);
}

}  // namespace texstream::app
