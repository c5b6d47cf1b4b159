#pragma once
// texstream::stream::ElementCopy: a vector's elements in a shader-storage buffer, element e
// at float e (texel t = y * W + x holds elements 4t..4t+3), for the compute backend.
//
// A kernel that gathers single elements at column indices (a mesh's sparse product,
// sparse/spmv_segment_product.glsl) fetches a whole 16-byte RGBA texel through the texture
// unit for each one and uses one channel; from this buffer each gather is a 4-byte load,
// and the texture unit's rate for those fetches is what bounds a mesh's product
// (docs/performance.md). The pass that writes the vector can write the copy beside it at
// the cost of its bytes (Chronopoulos–Gear CG's update does: solvers/krylov); copyFrom()
// makes it in a pass of its own.
#include <texstream/gl/Buffer.h>
#include <texstream/stream/Layout.h>

#include <string>

namespace texstream::stream {

class Vector;

class ElementCopy {
 public:
  ElementCopy() = default;
  /// Storage for vectors of `layout`: layout.texels() * 16 bytes, contents undefined.
  /// Throws gl::Error naming the copy where the context has no storage buffers or its
  /// storage blocks are smaller than that (fits()).
  ElementCopy(const Layout& layout, std::string name);

  /// Whether kernels on the current context can read a copy of vectors of `layout`:
  /// storage buffers, and layout.texels() * 16 bytes within
  /// Capabilities::maxStorageBlockBytes. Where not, gathers read the vector's texture.
  static bool fits(const Layout& layout);

  const Layout& layout() const { return m_layout; }
  /// The buffer, to bind to a kernel's shader-storage binding; 0 if default-constructed.
  unsigned int buffer() const { return m_buffer.id(); }
  const std::string& name() const { return m_name; }

  /// Copies x (of layout()) into the buffer: one compute dispatch (stream/copy_elements.glsl).
  /// Throws gl::Error naming the copy unless the compute backend is in effect and x has
  /// layout().
  void copyFrom(const Vector& x);
  /// gl::Error at `where` unless x has layout() (a copy of a vector of another shape would
  /// gather the wrong elements).
  void requireLayoutOf(const Vector& x, const std::string& where) const;

 private:
  Layout m_layout;
  std::string m_name;
  gl::Buffer m_buffer;
};

}  // namespace texstream::stream
