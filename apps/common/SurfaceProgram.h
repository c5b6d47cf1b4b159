#pragma once
// texstream::app::SurfaceProgram: a raster program that draws a surface of the 3D view
// straight from textures, with no vertex buffers: its vertex shader finds each vertex from
// gl_VertexID / gl_InstanceID and texelFetch (the smoothed mesh, the wave's height field,
// the LSCM map). It owns the program and the empty vertex array GL needs to draw, and
// binds, for one draw, the sampled textures to units 0, 1, ... under their sampler names
// and the camera as u_viewProjection and u_eye. Its fragment shader may call
//   float wireframeEdge(vec3 barycentric)  // 1 on a triangle's edges (a pixel wide), 0 inside
// with the barycentric coordinates the corners pass: (1, 0, 0), (0, 1, 0), (0, 0, 1).
//   SurfaceProgram surface("wave.heightfield", {"apps/wave/heightfield.vert", kVertex}, {"apps/wave/heightfield.frag", kFragment});
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
  /// Compiles and links the two stages (GLSL 3.30 or ES 3.00, stream::rasterProgram); the
  /// program and its vertex array are labelled `name`. Throws gl::Error as gl::Program does.
  SurfaceProgram(const std::string& name, gl::ShaderPiece vertex, gl::ShaderPiece fragment);

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
