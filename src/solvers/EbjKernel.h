#pragma once
// texstream::solvers::EbjKernel: the generated slab kernel of the enhanced block Jacobi
// method (Bajaj et al. 2004, §4.1), built with src/codegen: the diagonal block S of
// -D^-1 (L + U) for one grid line, reordered (§2.3.2) so that its product packs into few
// vec4 instructions, compiled to a SimdProgram and emitted as GLSL. Pure CPU: the text is
// handed to the GPU by registerSource() (stream::registerKernelSource).
//
// The line has `length` unknowns i = 0 .. length-1 (length a multiple of 4), packed as
// length / 4 quadruples ("slabs" once the whole grid is packed): slot q = 4 s + p (slab s,
// lane p) holds line position permutation()[q] (codegen::LinearExpression's convention).
// The system is A u = f with A the (2·dims + 1)-point -Δ, h = 1, on a grid whose lines run
// along x; D_i = 2·dims, less one at a Neumann end (i = 0 or length - 1 with ends =
// Neumann). S[i][i±1] = 1 / D_i: the paper's a and b (-1/3, -1/4 in 2D; -1/5, -1/6 in 3D,
// with its sign convention for the Poisson matrix).
//
// The source defines, for the slab that `#define EBJ_SLAB s` selects (one compiled
// variant per slab, as the paper runs one pixel shader per quadruple):
//   uniform sampler2D u_block<J>;        the slabs J != s that row s of S reads
//   const vec4 kEbjDiag, kEbjInvDiag;    D and 1 / D of the slab's four unknowns
//   void ebjGather(ivec2 c, out vec4 x[EBJ_BLOCKS]);   those slabs' texels at c
//   void ebjRow(in vec4 x[EBJ_BLOCKS], out vec4 y[EBJ_BLOCKS]);  y[s] = (S x)_s, the
//        straight-line code toGlsl emits for block row s of the optimised program
// and includes shaders/ebj/slab_common.glsl before and shaders/ebj/slab_update.glsl after.
#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/LinearExpression.h>
#include <texstream/codegen/SimdProgram.h>

#include <array>
#include <string>
#include <vector>

namespace texstream::solvers {

/// Boundary condition on both ends of one grid direction (§4.1.3: "either Dirichlet or
/// Neumann conditions to each direction"): Dirichlet u = 0 beyond the grid (ghost value
/// 0); Neumann du/dn = 0 by copying the boundary value outward (the ghost equals its
/// neighbour, the paper's GL_CLAMP_TO_EDGE).
enum class EbjBoundary { Dirichlet, Neumann };
const char* ebjBoundaryName(EbjBoundary b);

/// How the line's unknowns are put into quadruples.
enum class EbjOrdering {
  Natural,    ///< slab s = positions 4s .. 4s+3 (the unoptimised "EBJ on GPU" of Table 3)
  Stretches,  ///< slab s = positions s, s + L/4, s + 2L/4, s + 3L/4: four parallel stretches
              ///< of the line, cost ceil(nnz / 4), the optimum (codegen/Examples.h)
  Annealed,   ///< the ordering codegen::anneal finds (§2.3.3) with EbjKernel's schedule
};
const char* ebjOrderingName(EbjOrdering o);

/// Longest supported line: one kernel variant and one pass per 4 unknowns.
inline constexpr int kEbjMaxLineLength = 256;

class EbjKernel {
 public:
  /// Throws std::invalid_argument unless length is a multiple of 4 in [4, kEbjMaxLineLength]
  /// and dimensions is 2 or 3 (or for a bad schedule). `schedule` is used by Annealed only.
  EbjKernel(int length, int dimensions, EbjBoundary ends, EbjOrdering ordering,
            const codegen::AnnealingSchedule& schedule = defaultSchedule());
  /// The ebj3d example's schedule (codegen/Examples.cpp) with 4 restarts.
  static codegen::AnnealingSchedule defaultSchedule();

  int length() const { return m_length; }
  int slabs() const { return m_length / 4; }
  int dimensions() const { return m_dimensions; }
  EbjBoundary ends() const { return m_ends; }
  EbjOrdering ordering() const { return m_ordering; }

  /// S in natural line order (codegen::enhancedBlockJacobiS).
  const codegen::LinearExpression& sBlock() const { return m_s; }
  /// permutation()[4 s + p] = line position held by lane p of slab s.
  const std::vector<int>& permutation() const { return m_permutation; }
  /// position()[i] = slot 4 s + p of line position i (the inverse).
  const std::vector<int>& position() const { return m_position; }
  /// C(E) of S in natural order and in the chosen order (§2.3.1).
  int naturalCost() const { return m_naturalCost; }
  int cost() const { return m_cost; }
  /// The compiled optimised product y = S' x' (S' = S permuted).
  const codegen::SimdProgram& program() const { return m_program; }
  /// Slabs that block row s of S' reads (sorted; may include s itself).
  const std::vector<int>& blocksRead(int slab) const { return m_blocksRead.at(std::size_t(slab)); }
  /// D_i of the four unknowns of a slab.
  std::array<double, 4> diagonal(int slab) const;
  /// D_i of line position i.
  double diagonalAt(int i) const;

  /// The generated GLSL (see the file comment) and the kernel name it is registered under,
  /// "ebj/generated/<hash of the text>".
  const std::string& source() const { return m_source; }
  const std::string& kernelName() const { return m_name; }
  /// stream::registerKernelSource(kernelName(), source()), once per process and name.
  void registerSource() const;

 private:
  int m_length = 0, m_dimensions = 0;
  EbjBoundary m_ends = EbjBoundary::Dirichlet;
  EbjOrdering m_ordering = EbjOrdering::Stretches;
  codegen::LinearExpression m_s;
  std::vector<int> m_permutation, m_position;
  int m_naturalCost = 0, m_cost = 0;
  codegen::SimdProgram m_program;
  std::vector<std::vector<int>> m_blocksRead;
  std::string m_source, m_name;
};

}  // namespace texstream::solvers
