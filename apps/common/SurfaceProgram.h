#pragma once
// texstream::app::SurfaceProgram: a raster program that draws a surface of the 3D view
// straight from textures, with no vertex buffers: its vertex shader finds each vertex from
// gl_VertexID / gl_InstanceID and texelFetch (the smoothed mesh, the wave's height field,
// the LSCM map). It owns the program and the empty vertex array GL needs to draw, and
// binds, for one draw, the sampled textures to units 0, 1, ... under their sampler names
// and the camera as u_viewProjection and u_eye.
//   SurfaceProgram surface(stream::rasterProgram("wave.heightfield", {...}, {...}));
//   surface.begin(view, {{"u_heights", heights.texture().id()}});
//   glUniform1f(surface.uniform("u_spacing"), h);
//   glDrawArraysInstanced(...);
//   surface.end();
#include <texstream/gl/Buffer.h>
#include <texstream/gl/Program.h>

#include <glm/glm.hpp>

#include <initializer_list>
#include <utility>

namespace texstream::app {

/// The camera a surface is drawn with.
struct CameraView {
  glm::mat4 viewProjection{1.0f};
  glm::vec3 eye{0.0f};
};

class SurfaceProgram {
 public:
  /// The vertex array takes the program's name.
  explicit SurfaceProgram(gl::Program program);

  /// Uses the program with `textures` (sampler name, GL texture) on units 0, 1, ... and the
  /// camera, and binds the vertex array; depth-tested (GL_LESS) or not, no culling, no
  /// blending.
  void begin(const CameraView& camera, std::initializer_list<std::pair<const char*, unsigned int>> textures,
             bool depthTest = true);
  /// Unbinds the textures, the vertex array and the program; depth testing off.
  void end();

  int uniform(const char* name) const { return m_program.uniformLocation(name); }

 private:
  gl::Program m_program;
  gl::VertexArray m_vao;
  int m_textures = 0;  ///< bound by begin()
};

}  // namespace texstream::app
