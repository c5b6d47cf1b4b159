#pragma once
// texstream::solvers::LayeredStencil: a 3x3-per-node grid operator on the GPU as nine
// layered textures A^d (Bolz et al. 2003, §4.2: "we store the matrix as nine 2D textures
// A_h^d[i], d in {-1, 0, 1}^2"), entry d in entry(GridStencil::entryIndex(dx, dy)), each a
// layered field of grid() (LayeredGrid.h) with its border in sync. The centre entry is
// zero at fixed (Dirichlet) nodes.
//
// It is also a LinearOperator on plain vectors of nx ny elements (node (i, j) at element
// i + nx j, any layout): apply() layers x, applies the stencil, un-layers y (fixed rows are
// identity rows, as GridStencil::apply), so CG runs on the very operator multigrid uses.
//
// Constant-coefficient fast path: most texels of a Poisson or Helmholtz operator (and of
// its Galerkin coarse operators) away from walls and obstacles hold one and the same
// stencil. findConstantStencils() picks that reference stencil per channel (the most
// frequent one among a few sampled interior texels, read back once) and computes a flag
// texture (R32F, 1 where the nine entries of every channel that owns its node equal the
// reference bit for bit). bind() then also binds the flags and the reference as uniforms u_S0 .. u_S8, and
// the kernels (shaders/multigrid/stencil.glsl: stencilConstant, stencilApplyConstant) read
// the uniforms instead of the nine textures at flagged texels: the same values, so the
// same results, with 2 instead of 11 RGBA32F fields read per texel of a sweep.
#include <texstream/gl/Texture.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>
#include <texstream/stream/Vector.h>

#include <array>
#include <span>
#include <string>

namespace texstream::solvers {
inline namespace multigrid {

class LayeredStencil : public linalg::LinearOperator {
 public:
  LayeredStencil() = default;
  /// All coefficients zero (every node fixed), on `grid`.
  LayeredStencil(const LayeredGrid& grid, std::string name);
  /// Uploads A (validated: GridStencil::validate) onto `grid` (same node counts), border
  /// included. Throws std::invalid_argument on a bad stencil or a size mismatch.
  static LayeredStencil upload(const GridStencil& A, const LayeredGrid& grid);
  /// Reads the coefficients back (blocking: one wait for the GPU).
  GridStencil download() const;
  /// Several operators' coefficients with one wait for all of them (stream::downloadAll).
  static std::vector<GridStencil> downloadAll(std::span<const LayeredStencil* const> ops);

  LayeredStencil(LayeredStencil&&) noexcept = default;
  LayeredStencil& operator=(LayeredStencil&&) noexcept = default;

  const LayeredGrid& grid() const { return m_grid; }
  const stream::Vector& entry(int e) const { return m_entries[std::size_t(e)]; }
  /// Writable entry e; a corner entry (0, 2, 6, 8) given out this way ends fivePoint().
  stream::Vector& entry(int e) {
    if (e == 0 || e == 2 || e == 6 || e == 8) m_fivePoint = false;
    return m_entries[std::size_t(e)];
  }
  /// True while the four corner entries are known to be zero everywhere (a 5-point
  /// operator): from construction (all zero) until a corner entry is handed out writable,
  /// and after upload() of a stencil whose corners are zero. The tiled sweeps then skip
  /// the corners (Multigrid.h), with the same results.
  bool fivePoint() const { return m_fivePoint; }
  const stream::Vector& centre() const { return m_entries[4]; }
  /// Copies the owners' coefficients into every entry's border (after writing entries).
  void syncBorder();
  /// Binds the nine entries as u_A0 .. u_A8 (shaders/multigrid/stencil.glsl); with a
  /// constant stencil also defines CONSTANT_STENCIL, binds the flags as u_constant and the
  /// reference entries as u_S0 .. u_S8 (vec4: one value per channel); constantPath false
  /// binds the entries only, as without one.
  void bind(stream::Pass& pass, bool constantPath = true) const;

  // Constant-coefficient fast path (see the top of this file).
  /// For each operator (entries final, borders in sync): samples up to 16 texels where all
  /// four channels own their node (one gather pass per operator, one read-back for all),
  /// takes per channel the most frequent free stencil among them as the reference (bitwise;
  /// it must occur at least twice, else the operator gets no fast path: variable
  /// coefficients), and computes the flags (one pass). Writing entries afterwards needs
  /// another call (or clearConstantStencil()).
  static void findConstantStencils(std::span<LayeredStencil* const> ops);
  void clearConstantStencil();
  bool hasConstantStencil() const { return m_constantFlags.id() != 0; }
  /// Entry e, channel c of the reference at [4 e + c] (meaningful with a constant stencil).
  const std::array<float, 36>& constantStencil() const { return m_constant; }
  /// The flags (width() x height() of grid(), R32F: 1 or 0); empty without a constant stencil.
  const gl::Texture& constantFlags() const { return m_constantFlags; }
  /// Number of flagged texels (blocking read-back; 0 without a constant stencil).
  std::size_t constantTexels() const;

  /// y = A x on layered fields of grid() (x border-synchronised; y gets owned values only).
  void applyLayered(const stream::Vector& x, stream::Vector& y) const;

  // LinearOperator (plain vectors of nx ny elements).
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// d = the centre entries, 1 at fixed nodes (their identity rows), in d's layout.
  void diagonal(stream::Vector& d) const override;
  std::size_t rows() const override { return m_grid.nodes(); }
  std::size_t cols() const override { return m_grid.nodes(); }
  const std::string& name() const override { return m_name; }
  /// Nine coefficient texels, x at the texel and its neighbours (cached), one write, per
  /// texel of the layered apply; layering and un-layering not counted.
  double bytesPerApply() const override;
  double flopsPerApply() const override { return 9.0 * double(m_grid.nodes()); }

 private:
  LayeredGrid m_grid;
  std::string m_name;
  std::array<stream::Vector, 9> m_entries;
  std::array<float, 36> m_constant{};
  bool m_fivePoint = true;
  gl::Texture m_constantFlags;
};

}  // namespace multigrid
}  // namespace texstream::solvers
