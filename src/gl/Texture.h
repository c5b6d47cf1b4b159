#pragma once
// texstream::gl::Texture: move-only owner of a 2D (or 2D array) texture.
#include <texstream/gl/ObjectName.h>

#include <span>
#include <string>

namespace texstream::gl {

/// RGBA16F holds half floats (uploaded and read back as floats): the format of fields that
/// can do with 11 bits of mantissa on contexts without RGBA32F render targets
/// (Capabilities::halfFloatRenderTargets).
enum class TextureFormat { RGBA32F, RG32F, R32F, RGBA8, RGBA16F };

/// Bytes per texel, and the GLSL image format qualifier ("rgba32f") for imageStore.
int bytesPerTexel(TextureFormat format);
/// The GL internal format (GL_RGBA32F, ...), e.g. for glBindImageTexture.
unsigned int internalFormat(TextureFormat format);
const char* imageFormatQualifier(TextureFormat format);
int channelCount(TextureFormat format);
/// RGBA32F, RG32F, R32F: the formats whose render targets need Capabilities::floatRenderTargets.
bool isFloat32(TextureFormat format);
/// "RGBA32F", ...: for messages.
const char* formatName(TextureFormat format);

class Texture {
 public:
  Texture() = default;
  /// width x height texels; layers > 0 makes a GL_TEXTURE_2D_ARRAY with that many layers.
  /// Contents start at zero. Nearest filtering, clamp to edge (kernels use texelFetch).
  Texture(int width, int height, TextureFormat format, std::string name, int layers = 0);

  unsigned int id() const { return m_id.get(); }
  unsigned int target() const;
  int width() const { return m_width; }
  int height() const { return m_height; }
  int layers() const { return m_layers; }
  bool isArray() const { return m_layers > 0; }
  TextureFormat format() const { return m_format; }
  const std::string& name() const { return m_name; }
  /// Renames (and relabels for debug output).
  void setName(std::string name);
  /// The share group the texture belongs to (the contexts it can be used in).
  const ObjectOwner& owner() const { return m_id.owner(); }

  /// Whole texture (layer for arrays) from tightly packed floats (width*height*channels).
  void upload(const float* data, int layer = 0);
  /// Sub-rectangle upload of float data.
  void uploadRect(int x, int y, int w, int h, const float* data, int layer = 0);
  /// Whole texture (layer) into tightly packed floats; blocking (reads through an FBO).
  void download(float* out, int layer = 0) const;
  /// Every texel (every layer) set to (v, v, v, v).
  void fill(float value);

 private:
  ObjectName m_id;
  int m_width = 0, m_height = 0, m_layers = 0;
  TextureFormat m_format = TextureFormat::RGBA32F;
  std::string m_name;
};

/// Several whole textures (layer 0) into tightly packed floats with one wait for the GPU
/// instead of one a texture: every copy is enqueued into one pixel-pack buffer, which is
/// mapped once. For set-up code that reads many small textures (a multigrid hierarchy's
/// stencils), where each blocking read is a full round trip. outs[i] holds
/// width * height * channels floats of textures[i].
void downloadTextures(std::span<const Texture* const> textures, std::span<float* const> outs);

}  // namespace texstream::gl
