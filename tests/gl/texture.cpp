// Tests src/gl/Texture.*, Program.*, Capabilities.*, HeadlessContext.*.
#include <catch2/catch.hpp>

#include "support/Gl.h"

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/Program.h>
#include <texstream/gl/Texture.h>

#include <glad/gl.h>

using namespace texstream;

TEST_CASE("headless context offers what texstream needs", "[gl]") {
  test::context();
  const gl::Capabilities caps = gl::queryCapabilities();
  INFO(caps.summary());
  REQUIRE(caps.atLeast(3, 3));
  REQUIRE(caps.floatRenderTargets);
  REQUIRE(caps.maxTextureSize >= 4096);
  // CI's llvmpipe and the NVIDIA driver both have 4.3+: both backends are always tested.
  REQUIRE(caps.compute);
  REQUIRE_FALSE(test::context().description().empty());
}

TEST_CASE("textures round-trip, move, and reject bad sizes with their name", "[gl]") {
  test::context();
  gl::Texture t(3, 2, gl::TextureFormat::RGBA32F, "t");
  std::vector<float> data(24);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = float(i) - 7.5f;
  t.upload(data.data());
  std::vector<float> back(24);
  t.download(back.data());
  REQUIRE(back == data);
  gl::Texture moved = std::move(t);
  REQUIRE(t.id() == 0);  // NOLINT(bugprone-use-after-move)
  moved.download(back.data());
  REQUIRE(back == data);

  gl::Texture arr(2, 2, gl::TextureFormat::R32F, "arr", 3);
  std::vector<float> layer{1, 2, 3, 4};
  arr.upload(layer.data(), 2);
  std::vector<float> got(4);
  arr.download(got.data(), 2);
  REQUIRE(got == layer);
  arr.download(got.data(), 1);
  REQUIRE(got == std::vector<float>(4, 0.0f));

  REQUIRE_THROWS_WITH(gl::Texture(0, 5, gl::TextureFormat::RGBA32F, "zero"), Catch::Contains("\"zero\""));
  const int huge = gl::queryCapabilities().maxTextureSize + 1;
  REQUIRE_THROWS_WITH(gl::Texture(huge, 1, gl::TextureFormat::RGBA32F, "huge"),
                      Catch::Contains("Texture(\"huge\")") && Catch::Contains("GL_INVALID_VALUE"));
  REQUIRE_THROWS_WITH(moved.uploadRect(2, 0, 2, 1, data.data()), Catch::Contains("outside"));
}

TEST_CASE("program compile errors name the file and line", "[gl]") {
  test::context();
  gl::ShaderStage fs{GL_FRAGMENT_SHADER, "#version 330 core",
                     {{"<generated>", "out vec4 o;\n", 1},
                      {"shaders/oops.glsl", "void main() {\n  o = vec4(1.0);\n  o += nothing_here;\n}\n", 1}}};
  gl::ShaderStage vs{GL_VERTEX_SHADER, "#version 330 core", {{"<vs>", "void main() { gl_Position = vec4(0.0); }\n", 1}}};
  REQUIRE_THROWS_WITH(gl::Program("oops", {vs, fs}),
                      Catch::StartsWith("Program(\"oops\")") && Catch::Contains("shaders/oops.glsl:3"));
}
