#pragma once
// texstream::linalg::PressureMatrix3D: the pressure operator of a 3D fluid domain on the GPU
// (PressureDomain3D.h has the equations), one LinearOperator that CG and its preconditioners
// take like any matrix. Vectors are packed GridField3D fields on grid() (four cells a texel);
// every texel of the flat texture is an element, and cells without an equation (solid, air,
// walled-in fluid, padding) are zero rows and columns: A x is 0 there whatever x holds.
//
// Storage, as Frantic Films stored their 7-point matrix beside the vectors (Batty et al.
// 2003), but symmetric and smaller: the diagonal as one packed field (0 off the fluid), and
// only where faces are partly open, the couplings with the -x, -y and -z neighbours as three
// more fields (the +x coupling of a cell is the -x coupling of its neighbour). Without face
// fractions two fluid neighbours couple with -1, read from the neighbour's diagonal being
// non-zero: the product then reads two fields and writes one.
// The coefficients are computed on the GPU (shaders/pressure3d/build.glsl) from a labels
// field, an optional level set and optional face fractions: from a PressureDomain3D once, or
// again each time step from fields a simulation updates (update()).
//
//   PressureDomain3D domain{.nx = 64, .ny = 64, .nz = 64, .labels = ...};
//   PressureMatrix3D A(domain, "pressure");
//   GridField3D b(A.grid(), "b"), x(A.grid(), "x");
//   b.uploadCells(divergence);
//   SolverStatus s = PressureSolver3D(A).solve(b, x, {.tolerance = 1e-6f});
#include <texstream/gl/Buffer.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/PressureDomain3D.h>
#include <texstream/stream/GridField3D.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace texstream::linalg {

class PressureMatrix3D : public LinearOperator {
 public:
  /// What update() reads, fixed for the matrix's lifetime.
  struct Shape {
    int nx = 0, ny = 0, nz = 0;
    /// Beyond each side of the box (BoxSide order): Solid or Air.
    std::array<CellLabel, 6> outside{CellLabel::Solid, CellLabel::Solid, CellLabel::Solid,
                                     CellLabel::Solid, CellLabel::Solid, CellLabel::Solid};
    /// Whether update() is given face fractions (and the couplings are stored).
    bool faceFractions = false;
  };

  /// Uploads the domain (validated: std::invalid_argument naming the problem) and builds
  /// the coefficients. Keeps its floating components for PressureSolver3D.
  PressureMatrix3D(const PressureDomain3D& domain, std::string name);
  /// A matrix whose coefficients come from update(); until then every cell is solid.
  /// Throws gl::Error naming the matrix when the grid does not fit a texture.
  PressureMatrix3D(const Shape& shape, std::string name);
  PressureMatrix3D(PressureMatrix3D&&) noexcept = default;
  PressureMatrix3D& operator=(PressureMatrix3D&&) noexcept = default;

  /// Rebuilds the coefficients on the GPU from packed fields on grid(): labels (0 fluid,
  /// 1 solid, 2 air), an optional level set (theta on faces to air, as PressureDomain3D),
  /// and with Shape::faceFractions the open fractions of the -x, -y, -z faces (nullptr
  /// otherwise). `floating`: whether the fluid forms one closed region (no face open to
  /// air), whose right-hand sides PressureSolver3D then projects to zero mean. Throws
  /// gl::Error naming the matrix for fields on another grid or a missing/extra fraction.
  void update(const stream::GridField3D& labels, const stream::GridField3D* levelSet,
              const std::array<const stream::GridField3D*, 3>* faceOpen, bool floating);

  /// y = A x; x and y in grid()'s layout, y not x.
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// The same for fields, which also say their grid: one of the same layout but another
  /// grid (5 and 6 cells wide pack into the same texels) is refused by name.
  void apply(const stream::GridField3D& x, stream::GridField3D& y) const;
  /// y = A x and epilogue(y . x) in one dispatch (compute backend).
  void applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const override;
  /// d = diag(A): the diagonal field (0 off the fluid).
  void diagonal(stream::Vector& d) const override;
  std::size_t rows() const override { return m_grid.layout().size(); }
  std::size_t cols() const override { return rows(); }
  const std::string& name() const override { return m_name; }
  double bytesPerApply() const override;
  double flopsPerApply() const override;

  const stream::GridLayout3D& grid() const { return m_grid; }
  const Shape& shape() const { return m_shape; }
  /// A_ii > 0 on cells with an equation, 0 on solid (and walled-in fluid) cells and the
  /// padding, -1 on air: the diagonal with the labels the multigrid coarsens.
  const stream::GridField3D& diagonalField() const { return m_diagonal; }
  /// The couplings -A(i, i - x), -A(i, i - y), -A(i, i - z) (Shape::faceFractions), else null.
  const std::array<stream::GridField3D, 3>* couplings() const { return m_shape.faceFractions ? &m_couplings : nullptr; }
  /// Floating components (PressureDomain3D::floatingComponents): a packed field numbering
  /// each component's cells 1, 2, ... (0 elsewhere; empty while there are none), and how
  /// many there are.
  const stream::GridField3D& floatingField() const { return m_floating; }
  int floatingCount() const { return m_floatingCount; }
  /// The matrix as it is on the GPU, over its unknowns (the cells with an equation, rows in
  /// x-fastest cell order), in double from the float coefficients: what exportSystem writes
  /// for PETSc (SystemExport.h). unknownOfCell[c] is cell c's row or -1. Reads the fields
  /// back (blocking).
  Csr toCsr(std::vector<std::int64_t>* unknownOfCell = nullptr) const;
  /// Binds the operator's fields and defines (shaders/pressure3d/operator.glsl) on `pass`.
  void bindOperator(stream::Pass& pass) const;

 private:
  std::string title() const { return "PressureMatrix3D(\"" + m_name + "\")"; }
  void requireVector(const char* what, const std::string& op, const stream::Vector& v) const;

  std::string m_name;
  Shape m_shape;
  stream::GridLayout3D m_grid;
  stream::GridField3D m_diagonal;
  std::array<stream::GridField3D, 3> m_couplings;
  stream::GridField3D m_floating;
  int m_floatingCount = 0;
  mutable gl::Buffer m_dotScratch;
};

}  // namespace texstream::linalg
