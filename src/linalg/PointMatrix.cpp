// Krüger & Westermann 2005, §44.2.3 and §44.3.3: the vertex representation of a random
// sparse matrix and its product as points rendered with additive blending.
#include <texstream/linalg/PointMatrix.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/Framebuffer.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/Csr.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace texstream::linalg {

namespace {
static_assert(sizeof(PointMatrix::Entry) == 12, "Entry is the vertex format: ivec2 + float");
}

PointMatrix::PointMatrix(std::size_t rows, std::size_t cols, const std::vector<Entry>& entries, std::string name)
    : StoredMatrix("PointMatrix", std::move(name), rows, cols), m_nonZeros(entries.size()) {
  const std::string title = this->title();
  if (rows == 0 || cols == 0) {
    throw std::invalid_argument(title + ": empty shape " + std::to_string(rows) + "x" + std::to_string(cols));
  }
  if (rows > std::size_t(INT32_MAX) || cols > std::size_t(INT32_MAX)) {
    throw std::invalid_argument(title + ": shape " + std::to_string(rows) + "x" + std::to_string(cols) +
                                " does not fit 32-bit indices");
  }
  std::vector<float> diag(rows == cols ? rows : 0, 0.0f);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    if (e.row < 0 || std::size_t(e.row) >= rows || e.col < 0 || std::size_t(e.col) >= cols) {
      throw std::invalid_argument(title + ": entry " + std::to_string(k) + " at (" + std::to_string(e.row) + ", " +
                                  std::to_string(e.col) + ") outside the " + std::to_string(rows) + "x" +
                                  std::to_string(cols) + " matrix");
    }
    if (!std::isfinite(e.value)) {
      throw std::invalid_argument(title + ": entry " + std::to_string(k) + " at (" + std::to_string(e.row) + ", " +
                                  std::to_string(e.col) + ") is not finite");
    }
    if (rows == cols && e.row == e.col) diag[std::size_t(e.row)] += e.value;
  }

  gl::StateGuard guard;
  initRowLayout();
  m_program = stream::rasterProgram("point_scatter", stream::loadShaderPieces("shaders/linalg/point_scatter.vert.glsl"),
                                    stream::loadShaderPieces("shaders/linalg/point_scatter.frag.glsl"));
  m_vertices = gl::Buffer(this->name() + ".vertices", entries.size() * sizeof(Entry), entries.empty() ? nullptr : entries.data(),
                          GL_STATIC_DRAW);
  vertexArray();
  if (rows == cols) setDiagonal(diag);
}

const gl::VertexArray& PointMatrix::vertexArray() const {
  // Those of contexts texstream has released are dropped (their names are forgotten).
  std::erase_if(m_vaos, [](const gl::VertexArray& v) { return v.owner().state() && v.owner().state()->dead(); });
  for (const gl::VertexArray& v : m_vaos) {
    if (v.owner().isCurrent()) return v;
  }
  gl::StateGuard guard;  // restores the host's vertex array and array buffer
  gl::VertexArray& vao = m_vaos.emplace_back(this->name() + ".points");
  glBindVertexArray(vao.id());
  glBindBuffer(GL_ARRAY_BUFFER, m_vertices.id());
  glEnableVertexAttribArray(0);
  glVertexAttribIPointer(0, 2, GL_INT, GLsizei(sizeof(Entry)), reinterpret_cast<const void*>(offsetof(Entry, row)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, GLsizei(sizeof(Entry)),
                        reinterpret_cast<const void*>(offsetof(Entry, value)));
  return vao;
}

PointMatrix PointMatrix::fromCsr(const Csr& csr, std::string name) {
  csr.validate("PointMatrix::fromCsr(\"" + name + "\")");
  std::vector<Entry> entries;
  entries.reserve(csr.nonZeros());
  for (std::size_t r = 0; r < csr.rows; ++r) {
    for (std::int64_t k = csr.rowPtr[r]; k < csr.rowPtr[r + 1]; ++k) {
      entries.push_back({std::int32_t(r), csr.colIdx[std::size_t(k)], float(csr.values[std::size_t(k)])});
    }
  }
  return PointMatrix(csr.rows, csr.cols, entries, std::move(name));
}

void PointMatrix::apply(const stream::Vector& x, stream::Vector& y) const {
  gl::StateGuard guard;
  const std::string title = this->title();
  requireApply(x, y);
  if (!m_vertices.owner().isCurrent()) m_vertices.owner().requireCurrent(title + ".apply: the matrix");
  stream::Runtime& rt = stream::Runtime::current();
  if (!rt.caps().floatBlending) {
    throw gl::Error(title + ".apply: this context cannot blend into RGBA32F targets (" + rt.caps().apiName() + ", " +
                    rt.caps().renderer + (rt.caps().es ? ": EXT_float_blend is missing" : "") +
                    "); use a BandedMatrix or DenseMatrix");
  }
  // x may just have been written by a compute pass's imageStore.
  if (rt.caps().memoryBarrier) glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);

  rt.profiler().begin(title + ".apply");
  rt.framebuffer().bindForDrawing({&y.texture()});
  glViewport(0, 0, y.layout().width(), y.layout().height());
  const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  glClearBufferfv(GL_COLOR, 0, zero);
  if (m_nonZeros > 0) {
    glUseProgram(m_program.id());
    gl::StateGuard::bindTexture(0, GL_TEXTURE_2D, x.texture().id());
    glUniform1i(m_program.uniformLocation("u_x"), 0);
    glUniform2i(m_program.uniformLocation("u_targetSize"), y.layout().width(), y.layout().height());
    glBindVertexArray(vertexArray().id());
    // gl_PointSize = 1 whatever the host's glPointSize (ES always takes gl_PointSize).
    if (rt.caps().programPointSize) glEnable(GL_PROGRAM_POINT_SIZE);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    glDrawArrays(GL_POINTS, 0, GLsizei(m_nonZeros));
    // Passes inside one guard assume blending off; the outermost guard restores the host's.
    glDisable(GL_BLEND);
    if (rt.caps().programPointSize) glDisable(GL_PROGRAM_POINT_SIZE);
  }
  rt.profiler().end();
}

double PointMatrix::bytesPerApply() const {
  // Vertices, x once (cols elements, whole texels; repeated fetches come from caches), and
  // y three times: the clear, then the blend's read and write of each texel (repeated
  // blends into one texel come from the raster caches).
  const double xTexels = double((cols() + 3) / 4);
  return double(m_nonZeros) * 12.0 + xTexels * 16.0 + 3.0 * double(rowLayout().texels()) * 16.0;
}

double PointMatrix::flopsPerApply() const { return 2.0 * double(m_nonZeros); }

}  // namespace texstream::linalg
