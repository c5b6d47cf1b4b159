#pragma once
// Draws a FluidSolver3D's fields (scalars(), solids(): flat 3D textures, GridLayout3D.h) by
// ray casting, in three passes a frame:
//  1. the volume: the flat fields copied into one GL 3D texture, a slice a draw (density or
//     the level set, temperature, solid), so the ray marcher reads every channel with one
//     hardware-filtered fetch a sample; non-finite values are dropped (a blow-up is reported
//     by the shell, not drawn);
//  2. smoke with shadows: the light that reaches each cell through the smoke and the
//     obstacles (a march towards the light per cell of a light volume of at most 64 cells a
//     side), once per step;
//  3. the view: a ray per pixel through the domain box.
//     Smoke: density absorbs and scatters (front to back), lit by the light volume, the
//     temperature glowing as fire (a black-body ramp). Liquid: sphere tracing of the level
//     set (phi is a distance in cells), the surface refined by bisection and shaded by the
//     normal grad phi (Fresnel reflection of the sky, refraction into the liquid, which
//     absorbs along the way to the far side). Solids: the iso-surface 0.5 of the solid
//     fraction; the moving sphere analytically. Outside, a floor and the sky.
// The domain's edges are lines over the view. Every pass keeps the host's GL state
// (gl::StateGuard, and the 3D texture bindings it does not cover).
#include "Fluid3DSettings.h"

#include <texstream/gl/Buffer.h>
#include <texstream/gl/Framebuffer.h>
#include <texstream/gl/Program.h>

#include <glm/glm.hpp>

#include <array>

namespace texstream::app {

class OrbitCamera;

/// A move-only GL 3D texture (linear filtering, clamped to its edges).
class VolumeTexture {
 public:
  VolumeTexture() = default;
  /// `internalFormat` GL_RGBA16F or GL_R16F; throws gl::Error naming `name` beyond the
  /// context's GL_MAX_3D_TEXTURE_SIZE.
  VolumeTexture(int nx, int ny, int nz, unsigned int internalFormat, const char* name);
  ~VolumeTexture();
  VolumeTexture(VolumeTexture&& o) noexcept;
  VolumeTexture& operator=(VolumeTexture&& o) noexcept;

  unsigned int id() const { return m_id; }
  std::array<int, 3> size() const { return m_size; }

 private:
  unsigned int m_id = 0;
  std::array<int, 3> m_size{0, 0, 0};
};

class Fluid3DRenderer {
 public:
  Fluid3DRenderer();

  /// The fields changed (a step, a reset, a new solver): the next draw copies them again.
  void fieldsChanged() { m_dirty = true; }
  /// Draws into the bound framebuffer's viewport (width x height pixels), seen by `camera`;
  /// `simToWorld` places the domain (sim coordinates, +z up) in the camera's world (+y up).
  void draw(const fluid::FluidSolver3D& solver, const Fluid3DSettings& settings, const OrbitCamera& camera,
            const glm::mat4& simToWorld, int width, int height);
  /// The volume's cells a side (the grid's, or fewer beyond GL_MAX_3D_TEXTURE_SIZE).
  std::array<int, 3> volumeSize() const { return m_volume.size(); }
  /// The direction towards the light, in sim coordinates.
  static glm::vec3 lightDirection();

 private:
  void copyVolume(const fluid::FluidSolver3D& solver);
  void lightVolume(const fluid::FluidSolver3D& solver, const Fluid3DSettings& settings);
  /// Fills `target` layer by layer through m_fbo: the bound program's full-screen triangle
  /// once a layer, u_layer = k. `checkTarget`: throws gl::Error where the first layer is
  /// not a complete framebuffer.
  void drawLayers(const gl::Program& program, const VolumeTexture& target, bool checkTarget);

  gl::Program m_copy, m_light, m_march, m_lines;
  gl::VertexArray m_vao;
  gl::Framebuffer m_fbo;
  VolumeTexture m_volume, m_lightVolume;
  bool m_dirty = true, m_lightDirty = true;
  float m_lightOpacity = -1;
};

}  // namespace texstream::app
