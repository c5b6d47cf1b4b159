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
  REQUIRE(caps.atLeast(3, caps.es ? 0 : 3));
  REQUIRE(caps.floatRenderTargets);
  REQUIRE(caps.maxTextureSize >= 2048);
  // The context is of the API the variant asked for (TEXSTREAM_GL), at that version or a
  // compatible higher one (EGL may give more: NVIDIA answers an ES 3.0 request with ES 3.2),
  // and it has compute shaders wherever the variant tests the compute backend.
  const gl::GlRequest& asked = test::context().request();
  REQUIRE(caps.es == asked.es);
  if (!asked.highest()) REQUIRE(caps.atLeast(asked.major, asked.minor));
  if (test::testsCompute()) REQUIRE(caps.compute);
  REQUIRE(caps.compute == (caps.es ? caps.atLeast(3, 1) : caps.atLeast(4, 3)));
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
                      Catch::Contains("Texture(\"huge\")") && Catch::Contains("exceeds this context's limits"));
  REQUIRE_THROWS_WITH(moved.uploadRect(2, 0, 2, 1, data.data()), Catch::Contains("outside"));
}

TEST_CASE("downloadTextures reads several textures with one wait, each as download() does", "[gl]") {
  test::context();
  // Odd sizes and every float format: the byte offsets in the shared pack buffer and the
  // row lengths (odd R32F widths) must come out as separate downloads do.
  struct Spec {
    int w, h;
    gl::TextureFormat format;
    int layers;
  };
  const std::vector<Spec> specs{{1, 1, gl::TextureFormat::RGBA32F, 0}, {7, 3, gl::TextureFormat::R32F, 0},
                                {5, 11, gl::TextureFormat::RG32F, 0}, {13, 2, gl::TextureFormat::RGBA32F, 0},
                                {3, 5, gl::TextureFormat::R32F, 2}};
  std::vector<gl::Texture> textures;
  std::vector<std::vector<float>> expected, got;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const Spec& s = specs[i];
    textures.emplace_back(s.w, s.h, s.format, std::string("t").append(std::to_string(i)), s.layers);
    std::vector<float> data(std::size_t(s.w * s.h * gl::channelCount(s.format)));
    for (std::size_t k = 0; k < data.size(); ++k) data[k] = float(i * 1000 + k) * 0.25f - 3.0f;
    textures.back().upload(data.data());
    expected.push_back(data);
    got.emplace_back(data.size(), -999.0f);
  }
  std::vector<const gl::Texture*> pointers;
  std::vector<float*> outs;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    pointers.push_back(&textures[i]);
    outs.push_back(got[i].data());
  }
  gl::downloadTextures(pointers, outs);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    INFO("texture " << i);
    CHECK(got[i] == expected[i]);
  }
  // Nothing of the read-back stays bound: a plain download afterwards still works.
  std::vector<float> again(expected[3].size());
  textures[3].download(again.data());
  CHECK(again == expected[3]);

  REQUIRE_THROWS_WITH(gl::downloadTextures(pointers, std::span<float* const>(outs.data(), 2)),
                      Catch::Contains("5 textures but 2 destinations"));
  gl::Texture empty;
  const gl::Texture* emptyPointer = &empty;
  float* sink = nullptr;
  REQUIRE_THROWS_WITH(gl::downloadTextures(std::span(&emptyPointer, 1), std::span(&sink, 1)),
                      Catch::Contains("empty texture"));
}

TEST_CASE("program compile errors name the file and line", "[gl]") {
  test::context();
  const std::string version = gl::capabilities().glslHeader(330, 300);
  gl::ShaderStage fs{GL_FRAGMENT_SHADER, version,
                     {{"<generated>", "out vec4 o;\n", 1},
                      {"shaders/oops.glsl", "void main() {\n  o = vec4(1.0);\n  o += nothing_here;\n}\n", 1}}};
  gl::ShaderStage vs{GL_VERTEX_SHADER, version, {{"<vs>", "void main() { gl_Position = vec4(0.0); }\n", 1}}};
  REQUIRE_THROWS_WITH(gl::Program("oops", {vs, fs}),
                      Catch::StartsWith("Program(\"oops\")") && Catch::Contains("shaders/oops.glsl:3"));
}
