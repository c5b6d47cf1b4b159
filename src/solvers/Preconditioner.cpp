#include <texstream/solvers/Preconditioner.h>

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Vector.h>

namespace texstream::solvers {

void IdentityPreconditioner::apply(const stream::Vector& r, stream::Vector& z) const {
  gl::StateGuard guard;
  stream::requireSameLayout("IdentityPreconditioner::apply", r, z);
  linalg::copy(r, z);
}

}  // namespace texstream::solvers
