#pragma once
// texstream::codegen::EbjKernel: the generated slab kernel of the enhanced block Jacobi
// method (Bajaj et al. 2004, §4.1): the diagonal block S of -D^-1 (L + U) for one grid
// line, reordered (§2.3.2) so that its product packs into few vec4 instructions, compiled
// to a SimdProgram and emitted as GLSL. Pure CPU. Its product, solvers::EbjSlabKernel
// (the text and the slab order, whose conventions solvers/stationary/EbjSlabKernel.h states), is what
// solvers::EnhancedBlockJacobi runs:
//   EnhancedBlockJacobi ebj(grid, codegen::ebjSlabKernel(grid, {.ordering = EbjOrdering::Annealed}));
//
// S[i][i±1] = 1 / D_i: the paper's a and b (-1/3, -1/4 in 2D; -1/5, -1/6 in 3D, with its
// sign convention for the Poisson matrix).
#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/LinearExpression.h>
#include <texstream/codegen/SimdProgram.h>
#include <texstream/solvers/stationary/EbjSlabKernel.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace texstream::solvers {
inline namespace stationary {
struct EbjGrid;
}
}  // namespace texstream::solvers

namespace texstream::codegen {

using solvers::EbjBoundary;

/// How the line's unknowns are put into quadruples.
enum class EbjOrdering {
  Natural,    ///< slab s = positions 4s .. 4s+3 (the unoptimised "EBJ on GPU" of Table 3)
  Stretches,  ///< slab s = positions s, s + L/4, s + 2L/4, s + 3L/4: four parallel stretches
              ///< of the line, cost ceil(nnz / 4), the optimum (codegen/Examples.h)
  Annealed,   ///< the ordering codegen::anneal finds (§2.3.3) with EbjKernel's schedule
};
const char* ebjOrderingName(EbjOrdering o);

struct EbjOptions {
  EbjOrdering ordering = EbjOrdering::Stretches;
  /// Annealed only (EbjKernel::defaultSchedule() when unset).
  std::optional<AnnealingSchedule> schedule;
};

class EbjKernel {
 public:
  /// Throws std::invalid_argument unless length is a multiple of 4 in [4, kEbjMaxLineLength]
  /// and dimensions is 2 or 3 (or for a bad schedule). `schedule` is used by Annealed only.
  EbjKernel(int length, int dimensions, EbjBoundary ends, EbjOrdering ordering,
            const AnnealingSchedule& schedule = defaultSchedule());
  /// The ebj3d example's schedule (codegen/Examples.cpp) with 4 restarts.
  static AnnealingSchedule defaultSchedule();

  int length() const { return m_slab.length; }
  int slabs() const { return m_slab.slabs(); }
  int dimensions() const { return m_slab.dimensions; }
  EbjBoundary ends() const { return m_slab.ends; }
  EbjOrdering ordering() const { return m_ordering; }

  /// S in natural line order (enhancedBlockJacobiS).
  const LinearExpression& sBlock() const { return m_s; }
  /// permutation()[4 s + p] = line position held by lane p of slab s.
  const std::vector<int>& permutation() const { return m_slab.permutation; }
  /// C(E) of S in natural order and in the chosen order (§2.3.1).
  int naturalCost() const { return m_naturalCost; }
  int cost() const { return m_cost; }
  /// The compiled optimised product y = S' x' (S' = S permuted).
  const SimdProgram& program() const { return m_program; }

  /// The kernel as the solver takes it: the generated GLSL (solvers/stationary/EbjSlabKernel.h), its
  /// name, the slab order and the slabs each block row reads.
  const solvers::EbjSlabKernel& slabKernel() const { return m_slab; }

 private:
  EbjOrdering m_ordering = EbjOrdering::Stretches;
  LinearExpression m_s;
  int m_naturalCost = 0, m_cost = 0;
  SimdProgram m_program;
  solvers::EbjSlabKernel m_slab;
};

/// The slab kernel for `grid`'s x-lines (EnhancedBlockJacobi's constructor argument):
/// EbjKernel(grid.nx, grid.dimensions(), grid.x, ...).slabKernel(). Throws
/// std::invalid_argument for a grid the solver does not support (EbjGrid::validate) or a
/// bad schedule.
solvers::EbjSlabKernel ebjSlabKernel(const solvers::EbjGrid& grid, const EbjOptions& options = {});

}  // namespace texstream::codegen
