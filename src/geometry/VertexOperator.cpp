// Bolz et al. 2003, §3.1.1: the segment SpMV, one program per row group, with x_j a texel.
#include <texstream/geometry/VertexOperator.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Runtime.h>

namespace texstream::geometry {

stream::Layout VertexOperator::vertexLayout(const linalg::SegmentMatrix& A) {
  const stream::Layout& internal = A.internalLayout();
  const int width = 4 * internal.width();
  const int maxSize = stream::Runtime::current().caps().maxTextureSize;
  if (width > maxSize)
    throw gl::Error("VertexOperator(\"" + A.name() + "\"): vertex vectors need a texture " + std::to_string(width) +
                    " texels wide, beyond this GPU's maximum texture size " + std::to_string(maxSize));
  return stream::Layout::withWidth(4 * internal.size(), width);
}

VertexOperator::VertexOperator(const linalg::SegmentMatrix& A, std::string name)
    : m_matrix(&A), m_name(std::move(name)), m_layout(vertexLayout(A)) {
  m_vertexShift = linalg::log2Ceil(std::size_t(m_layout.width()));
  if ((1 << m_vertexShift) != m_layout.width())
    throw gl::Error("VertexOperator(\"" + m_name + "\"): vertex layout width " + std::to_string(m_layout.width()) +
                    " is not a power of two");
}

std::vector<stream::Rect> VertexOperator::vertexRects(const linalg::SegmentGroup& group) {
  std::vector<stream::Rect> rects;
  rects.reserve(group.rects.size());
  for (const stream::Rect& r : group.rects) rects.push_back({4 * r.x, r.y, 4 * r.w, r.h});
  return rects;
}

void VertexOperator::requireVertexVector(const char* what, const stream::Vector& v) const {
  const std::string where = "VertexOperator(\"" + m_name + "\")." + what;
  if (v.empty()) throw gl::Error(where + ": empty vector (default-constructed or moved from)");
  if (v.layout() != m_layout)
    throw gl::Error(where + ": vector \"" + v.name() + "\" has " + v.layout().describe() +
                    ", expected the vertex layout " + m_layout.describe());
}

void VertexOperator::apply(const stream::Vector& x, stream::Vector& y) const {
  applyWith(m_matrix->internalDiagonal(), m_matrix->offDiagonalValues(), x, y);
}

void VertexOperator::applyWith(const stream::Vector& diagonal, const gl::Texture& offDiagonal, const stream::Vector& x,
                               stream::Vector& y) const {
  requireVertexVector("apply", x);
  requireVertexVector("apply", y);
  stream::requireDistinct("VertexOperator(\"" + m_name + "\").apply", {"y", y}, {"x", x},
                          "a product cannot be formed in place");
  const linalg::SegmentMatrix& A = *m_matrix;
  if (diagonal.layout() != A.internalLayout())
    throw gl::Error("VertexOperator(\"" + m_name + "\").applyWith: diagonal \"" + diagonal.name() + "\" has " +
                    diagonal.layout().describe() + ", expected the matrix's internal layout " +
                    A.internalLayout().describe());
  if (offDiagonal.width() != A.offDiagonalValues().width() || offDiagonal.height() != A.offDiagonalValues().height())
    throw gl::Error("VertexOperator(\"" + m_name + "\").applyWith: off-diagonal texture \"" + offDiagonal.name() +
                    "\" is " + std::to_string(offDiagonal.width()) + "x" + std::to_string(offDiagonal.height()) +
                    ", expected the values texture's " + std::to_string(A.offDiagonalValues().width()) + "x" +
                    std::to_string(A.offDiagonalValues().height()));
  gl::StateGuard guard;
  for (const linalg::SegmentGroup& g : A.layout().groups) {
    stream::Pass("geometry/spmv_vertices")
        .define("K", (long long)g.k)
        .label("spmv_vertices K=" + std::to_string(g.k))
        .input("u_x", x)
        .input("u_diagonal", diagonal)
        .input("u_starts", A.segmentStarts())
        .input("u_values", offDiagonal)
        .input("u_columns", A.columns())
        .uniform("u_vertexShift", m_vertexShift)
        .uniform("u_internalShift", A.layout().internalShift)
        .uniform("u_valuesShift", A.layout().valuesShift)
        .uniform("u_stride", g.stride)
        .output(y)
        .run(vertexRects(g));
  }
}

void VertexOperator::residualInDoubleFloat(const linalg::DoubleFloatVector& b, const linalg::DoubleFloatVector& x,
                                           stream::Vector& r) const {
  const std::string title = "VertexOperator(\"" + m_name + "\")";
  linalg::requireResidualShapes(title, m_layout, m_layout.size(), b, x, r);
  requireVertexVector("residualInDoubleFloat", x.hi());
  doubleFloatPasses(&b, x, &r, nullptr);
}

void VertexOperator::applyInDoubleFloat(const linalg::DoubleFloatVector& x, linalg::DoubleFloatVector& y) const {
  requireVertexVector("applyInDoubleFloat", x.hi());
  requireVertexVector("applyInDoubleFloat", y.hi());
  if (&x == &y || x.hi().texture().id() == y.hi().texture().id()) {
    throw gl::Error("VertexOperator(\"" + m_name + "\").applyInDoubleFloat: y (\"" + y.name() + "\") is x");
  }
  doubleFloatPasses(nullptr, x, nullptr, &y);
}

void VertexOperator::doubleFloatPasses(const linalg::DoubleFloatVector* b, const linalg::DoubleFloatVector& x,
                                       stream::Vector* r, linalg::DoubleFloatVector* y) const {
  const linalg::SegmentMatrix& A = *m_matrix;
  gl::StateGuard guard;
  for (const linalg::SegmentGroup& g : A.layout().groups) {
    stream::Pass pass("geometry/spmv_vertices");
    pass.define("K", (long long)g.k)
        .define(b ? "DOUBLE_FLOAT_RESIDUAL" : "DOUBLE_FLOAT_PRODUCT")
        .label(std::string(b ? "spmv_vertices residual K=" : "spmv_vertices double-float K=") + std::to_string(g.k))
        .input("u_x", x.hi())
        .input("u_xLo", x.lo())
        .input("u_diagonal", A.internalDiagonal())
        .input("u_starts", A.segmentStarts())
        .input("u_values", A.offDiagonalValues())
        .input("u_columns", A.columns())
        .uniform("u_vertexShift", m_vertexShift)
        .uniform("u_internalShift", A.layout().internalShift)
        .uniform("u_valuesShift", A.layout().valuesShift)
        .uniform("u_stride", g.stride);
    if (b) pass.input("u_bHi", b->hi()).input("u_bLo", b->lo());
    if (A.hasEntryTails()) {
      pass.define("ENTRY_TAILS").input("u_valueTails", A.offDiagonalTails()).input("u_diagonalTails", A.diagonalTails());
    }
    if (r) {
      pass.output(*r);
    } else {
      pass.output(y->mutableHi()).output(y->mutableLo());
    }
    pass.run(vertexRects(g));
  }
}

void VertexOperator::diagonal(stream::Vector& d) const { diagonalPass("diagonal", false, d); }

void VertexOperator::inverseDiagonal(stream::Vector& d) const { diagonalPass("inverseDiagonal", true, d); }

void VertexOperator::diagonalPass(const char* what, bool inverse, stream::Vector& d) const {
  requireVertexVector(what, d);
  gl::StateGuard guard;
  stream::Pass("geometry/vertex_diagonal")
      .define("INVERSE", inverse ? 1 : 0)
      .input("u_diagonal", m_matrix->internalDiagonal())
      .uniform("u_vertexShift", m_vertexShift)
      .uniform("u_internalShift", m_matrix->layout().internalShift)
      .uniform("u_n", int(m_layout.size()))
      .output(d)
      .run();
}

double VertexOperator::bytesPerApply() const {
  return double(m_layout.texels()) * (4 + 16 + 16 + 1) + double(m_matrix->layout().valueTexels) * 4.0 * (4 + 4 + 16);
}

double VertexOperator::flopsPerApply() const { return 3.0 * m_matrix->flopsPerApply(); }

VertexJacobi::VertexJacobi(const stream::Layout& layout, const std::string& name) : m_inverse(layout, name) {}

void VertexJacobi::update(const VertexOperator& A) { A.inverseDiagonal(m_inverse); }

void VertexJacobi::apply(const stream::Vector& r, stream::Vector& z) const {
  gl::StateGuard guard;
  stream::requireSameLayout("VertexJacobi::apply", r, m_inverse);
  stream::requireSameLayout("VertexJacobi::apply", r, z);
  linalg::multiply(r, m_inverse, z);
}

}  // namespace texstream::geometry
