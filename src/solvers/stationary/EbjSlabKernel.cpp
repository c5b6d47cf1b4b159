#include <texstream/solvers/stationary/EbjSlabKernel.h>

#include <texstream/stream/KernelCache.h>

#include <mutex>
#include <set>

namespace texstream::solvers {
inline namespace stationary {

const char* ebjBoundaryName(EbjBoundary b) { return b == EbjBoundary::Dirichlet ? "dirichlet" : "neumann"; }

std::vector<int> EbjSlabKernel::position() const {
  std::vector<int> out(std::size_t(length), -1);
  for (int q = 0; q < length; ++q) out[std::size_t(permutation.at(std::size_t(q)))] = q;
  return out;
}

double EbjSlabKernel::diagonalAt(int i) const {
  const bool end = i == 0 || i == length - 1;
  return 2.0 * dimensions - (end && ends == EbjBoundary::Neumann ? 1.0 : 0.0);
}

std::array<double, 4> EbjSlabKernel::diagonal(int slab) const {
  std::array<double, 4> d{};
  for (int p = 0; p < 4; ++p) d[std::size_t(p)] = diagonalAt(permutation.at(std::size_t(4 * slab + p)));
  return d;
}

void EbjSlabKernel::registerSource() const {
  static std::mutex mutex;
  static std::set<std::string> registered;
  std::lock_guard<std::mutex> lock(mutex);
  // The name is the text's hash, so a registered name already holds this text; registering
  // again would only drop this thread's compiled variants.
  if (registered.insert(name).second) stream::registerKernelSource(name, source);
}

}  // namespace stationary
}  // namespace texstream::solvers
