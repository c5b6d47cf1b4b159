#pragma once
// texstream::solvers::EbjSlabKernel: the generated slab kernel an EnhancedBlockJacobi runs
// (Bajaj et al. 2004, §4.1), as data: the GLSL text and the order of a line's unknowns in
// the slabs. src/codegen writes it (codegen::EbjKernel: the diagonal block S of
// -D^-1 (L + U) for one grid line, reordered (§2.3.2) so that its product packs into few
// vec4 instructions); the solver takes it from its caller, so solvers do not depend on
// codegen.
//
// The line has `length` unknowns i = 0 .. length-1 (length a multiple of 4), packed as
// length / 4 quadruples ("slabs" once the whole grid is packed): slot q = 4 s + p (slab s,
// lane p) holds line position permutation[q]. The system is A u = f with A the
// (2·dims + 1)-point -Δ, h = 1, on a grid whose lines run along x; D_i = 2·dims, less one
// at a Neumann end (i = 0 or length - 1 with ends = Neumann).
//
// The source defines, for the slab that `#define EBJ_SLAB s` selects (one compiled
// variant per slab, as the paper runs one pixel shader per quadruple):
//   uniform sampler2D u_block<J>;        the slabs J != s that row s of S reads
//   const vec4 kEbjDiag, kEbjInvDiag;    D and 1 / D of the slab's four unknowns
//   void ebjGather(ivec2 c, out vec4 x[EBJ_BLOCKS]);   those slabs' texels at c
//   void ebjRow(in vec4 x[EBJ_BLOCKS], out vec4 y[EBJ_BLOCKS]);  y[s] = (S x)_s
// and includes shaders/ebj/slab_common.glsl before and shaders/ebj/slab_update.glsl after.
#include <array>
#include <string>
#include <vector>

namespace texstream::solvers {
inline namespace stationary {

/// Boundary condition on both ends of one grid direction (§4.1.3: "either Dirichlet or
/// Neumann conditions to each direction"): Dirichlet u = 0 beyond the grid (ghost value
/// 0); Neumann du/dn = 0 by copying the boundary value outward (the ghost equals its
/// neighbour, the paper's GL_CLAMP_TO_EDGE).
enum class EbjBoundary { Dirichlet, Neumann };
const char* ebjBoundaryName(EbjBoundary b);

/// Longest supported line: one kernel variant and one pass per 4 unknowns.
inline constexpr int kEbjMaxLineLength = 256;

struct EbjSlabKernel {
  int length = 0, dimensions = 0;
  EbjBoundary ends = EbjBoundary::Dirichlet;
  /// permutation[4 s + p] = line position held by lane p of slab s.
  std::vector<int> permutation;
  /// Per slab: the slabs its block row of S reads (sorted; may include itself).
  std::vector<std::vector<int>> blocksRead;
  /// The GLSL (see the file comment) and the kernel name it is registered under,
  /// "ebj/generated/<hash of the text>".
  std::string source, name;

  int slabs() const { return length / 4; }
  /// position()[i] = slot 4 s + p of line position i (the inverse of permutation).
  std::vector<int> position() const;
  /// D_i of line position i.
  double diagonalAt(int i) const;
  /// D_i of the four unknowns of a slab.
  std::array<double, 4> diagonal(int slab) const;
  /// stream::registerKernelSource(name, source), once per process and name.
  void registerSource() const;
};

}  // namespace stationary
}  // namespace texstream::solvers
