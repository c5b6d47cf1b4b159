#include <texstream/solvers/stationary/JacobiPreconditioner.h>

#include <utility>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Layout.h>

#include <cmath>
#include <sstream>
#include <vector>

namespace texstream::solvers {
inline namespace stationary {

namespace {

stream::Vector invertDiagonal(const linalg::LinearOperator& A, const stream::Layout& layout) {
  linalg::requireSquare("JacobiPreconditioner(\"" + A.name() + "\")", A);
  if (layout.size() != A.rows()) {
    throw gl::Error("JacobiPreconditioner(\"" + A.name() + "\"): layout " + layout.describe() + " does not hold " +
                    std::to_string(A.rows()) + " rows");
  }
  gl::StateGuard guard;
  stream::Vector d(layout, A.name() + ".diagonal");
  A.diagonal(d);
  // The check needs every entry on the CPU anyway, so the reciprocal is taken there (in
  // double, rounded once) and uploaded: a set-up cost, not a per-iteration one.
  const std::vector<float> diag = d.download();
  std::vector<float> inverse(diag.size());
  for (std::size_t i = 0; i < diag.size(); ++i) {
    if (diag[i] == 0.0f || !std::isfinite(diag[i])) {
      std::ostringstream msg;
      msg << "JacobiPreconditioner(\"" << A.name() << "\"): diagonal entry of row " << i << " is " << diag[i]
          << "; diag(A)^-1 needs every diagonal entry finite and non-zero";
      throw gl::Error(msg.str());
    }
    inverse[i] = float(1.0 / double(diag[i]));
  }
  stream::Vector result(layout, A.name() + ".inverseDiagonal");
  result.upload(inverse);
  return result;
}

}  // namespace

JacobiPreconditioner::JacobiPreconditioner(const linalg::LinearOperator& A)
    : JacobiPreconditioner(A, stream::Layout::forSize(A.rows())) {}

JacobiPreconditioner::JacobiPreconditioner(const linalg::LinearOperator& A, const stream::Layout& layout)
    : m_inverseDiagonal(invertDiagonal(A, layout)) {}

void JacobiPreconditioner::apply(const stream::Vector& r, stream::Vector& z) const {
  gl::StateGuard guard;
  stream::requireSameLayout("JacobiPreconditioner::apply", r, m_inverseDiagonal);
  stream::requireSameLayout("JacobiPreconditioner::apply", r, z);
  linalg::multiply(r, m_inverseDiagonal, z);
}

JacobiPreconditioner JacobiPreconditioner::fromInverseDiagonal(stream::Vector inverseDiagonal) {
  if (inverseDiagonal.empty()) throw gl::Error("JacobiPreconditioner::fromInverseDiagonal: empty vector");
  JacobiPreconditioner m;
  m.m_inverseDiagonal = std::move(inverseDiagonal);
  return m;
}

}  // namespace stationary
}  // namespace texstream::solvers
