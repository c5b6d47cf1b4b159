// Tests src/gl/StateGuard.*: a texstream call leaves the host's GL state as it found it.
#include <catch2/catch.hpp>

#include "support/Gl.h"

#include <texstream/gl/StateGuard.h>
#include <texstream/gl/Texture.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

using namespace texstream;

TEST_CASE("texstream operations restore the host's GL state", "[gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // A host renderer's state: its own FBO, viewport, program-free but VAO bound, textures
  // on several units, blending, scissor, depth, wireframe.
  gl::Texture hostColor(32, 32, gl::TextureFormat::RGBA8, "host.color");
  gl::Texture hostTex(4, 4, gl::TextureFormat::RGBA32F, "host.tex");
  GLuint fbo = 0, vao = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, hostColor.id(), 0);
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glViewport(3, 4, 17, 19);
  glScissor(1, 2, 5, 6);
  glEnable(GL_SCISSOR_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_DEPTH_TEST);
  glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
  glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
  for (int unit : {0, 1, 2, 5}) {
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glBindTexture(GL_TEXTURE_2D, hostTex.id());
  }
  glActiveTexture(GL_TEXTURE3);

  {
    stream::Vector x(1000, "x"), y(1000, "y");
    std::vector<float> ones(1000, 1.0f);
    x.upload(ones);
    y.upload(ones);
    stream::Scalar s("s");
    stream::dot(x, y, s);
    REQUIRE(s.read() == 1000.0f);
  }

  GLint v[4];
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, v);
  REQUIRE(GLuint(v[0]) == fbo);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, v);
  REQUIRE(GLuint(v[0]) == vao);
  glGetIntegerv(GL_VIEWPORT, v);
  REQUIRE((v[0] == 3 && v[1] == 4 && v[2] == 17 && v[3] == 19));
  glGetIntegerv(GL_SCISSOR_BOX, v);
  REQUIRE((v[0] == 1 && v[1] == 2 && v[2] == 5 && v[3] == 6));
  REQUIRE(glIsEnabled(GL_SCISSOR_TEST));
  REQUIRE(glIsEnabled(GL_BLEND));
  REQUIRE(glIsEnabled(GL_DEPTH_TEST));
  glGetIntegerv(GL_BLEND_SRC_RGB, v);
  REQUIRE(v[0] == GL_SRC_ALPHA);
  glGetIntegerv(GL_POLYGON_MODE, v);
  REQUIRE(v[0] == GL_LINE);
  GLboolean mask[4];
  glGetBooleanv(GL_COLOR_WRITEMASK, mask);
  REQUIRE((mask[0] && !mask[1] && mask[2] && !mask[3]));
  glGetIntegerv(GL_ACTIVE_TEXTURE, v);
  REQUIRE(v[0] == GL_TEXTURE3);
  for (int unit : {0, 1, 2, 5}) {
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glGetIntegerv(GL_TEXTURE_BINDING_2D, v);
    REQUIRE(GLuint(v[0]) == hostTex.id());
  }
  glGetIntegerv(GL_CURRENT_PROGRAM, v);
  REQUIRE(v[0] == 0);

  // Back to a neutral state for the other tests in this process.
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glBindVertexArray(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteVertexArrays(1, &vao);
  glDeleteFramebuffers(1, &fbo);
  REQUIRE(glGetError() == GL_NO_ERROR);
}
