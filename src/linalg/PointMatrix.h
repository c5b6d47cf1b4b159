#pragma once
// texstream::linalg::PointMatrix: a "random sparse matrix" as vertices (Krüger & Westermann
// §44.2.3, fig. 44-4, and §44.3.3): each non-zero a_ij is one GL_POINTS vertex placed at the
// texel of row i; its vertex shader fetches x_j from x's texture, and the fragment writes
// a_ij x_j into channel i % 4 of an RGBA32F target cleared to zero, where additive blending
// (glBlendFunc(GL_ONE, GL_ONE)) sums the products of a row. (K&W pack four non-zeros of a
// row texel into one vertex; one vertex per non-zero keeps any pattern exact.)
//
// This is a raster scatter: on the Compute backend too it runs the same vertex + fragment
// path, since core OpenGL has no float atomics to scatter-add from a compute shader.
// Summation order within a row is the blender's (not deterministic across GPUs).
// Needs float blending (Capabilities::floatBlending); apply() throws gl::Error without it.
#include <texstream/gl/Buffer.h>
#include <texstream/gl/Program.h>
#include <texstream/linalg/StoredMatrix.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Vector.h>

#include <cstdint>
#include <string>
#include <vector>

namespace texstream::linalg {

struct Csr;

class PointMatrix : public StoredMatrix {
 public:
  /// One non-zero: the vertex of K&W fig. 44-4. Duplicates (same row and column) add up.
  struct Entry {
    std::int32_t row = 0, col = 0;
    float value = 0.0f;
  };

  /// A rows x cols from its non-zeros; throws std::invalid_argument naming the first entry
  /// outside the matrix or a non-finite value.
  PointMatrix(std::size_t rows, std::size_t cols, const std::vector<Entry>& entries, std::string name);
  /// A from a CSR matrix (validated).
  static PointMatrix fromCsr(const Csr& csr, std::string name);

  /// y = A x: x has cols elements (any layout), y rows elements in Layout::forSize(rows).
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// Bytes: 12 per vertex, x once, and y cleared, then read and written once by the blend
  /// (the lower bound of docs/benchmarks.md: repeated fetches and blends hit caches).
  double bytesPerApply() const override;
  /// 2 per stored non-zero.
  double flopsPerApply() const override;
  std::size_t nonZeros() const { return m_nonZeros; }

 private:
  /// The vertex array of the current context (GL shares the vertex buffer between the
  /// contexts of a share group, never vertex arrays): made on first use in each.
  const gl::VertexArray& vertexArray() const;

  std::size_t m_nonZeros = 0;
  gl::Program m_program;
  gl::Buffer m_vertices;
  mutable std::vector<gl::VertexArray> m_vaos;
};

}  // namespace texstream::linalg
