#pragma once
// texstream::linalg::SystemBuilder: a sparse linear system built row by row, coefficient by
// coefficient, the way OpenNL builds one (Lévy's OpenNL, the front end of the Concurrent
// Number Cruncher: Buatois, Caumon & Lévy 2008, §1-2).
//
//   SystemBuilder s(vertices, SystemMode::LeastSquares, "lscm", /*blockSize=*/2);
//   s.lock(pin, std::array{0.0, 0.0});           // locked variables move to the right-hand side
//   s.beginRow();
//   s.coefficient(v0, 0, a); s.coefficient(v1, 1, -c);  ...
//   s.endRow(/*rhs=*/0.0, /*weight=*/w);
//   LinearSystem system = s.build();             // the SPD system CG solves (solvers/systems/SystemSolver.h)
//
// Variables: `variables` of them, each a block of `blockSize` scalars (1, 2 or 4; block
// b holds scalars b * blockSize + c), so a BCRS 2x2 / 4x4 matrix (BcrsMatrix.h) stores
// the coupling of two variables as one block. Each variable is free or locked to values.
// `systems` right-hand sides share the matrix (OpenNL's NL_NB_SYSTEMS: x, y and z of a
// mesh smoothing): every row takes one right-hand side per system, every locked variable
// one value per component and system.
//
// A row is  sum_j a_j x_j = rhs  over scalar components x_j, with weight w > 0:
//  - SystemMode::LeastSquares: minimise sum_rows w (sum_j a_j x_j - rhs)^2; the system to
//    solve is the normal equations A^T W A x = A^T W b (SPD when A has full column rank);
//  - SystemMode::Square: row k is equation k of the free unknowns (in their order), scaled
//    by w; CG needs it symmetric positive definite (LinearSystem::symmetric() says whether
//    it is symmetric).
// Locked scalars move to the right-hand side: rhs - sum_{locked j} a_j x_j.
//
// Misuse throws std::invalid_argument naming the system, the row and the variable: a
// coefficient outside a row, a variable or component out of range, a NaN or infinite
// coefficient, right-hand side, weight or locked value, a weight <= 0, a row without
// coefficients, a second beginRow() or an endRow() without one; and at build(): a row
// whose every coefficient is on a locked variable, a free variable in no row (singular
// system), no rows or no free variable, a square system whose row count differs from its
// free unknowns, an open row.
#include <texstream/linalg/Csr.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace texstream::linalg {

enum class SystemMode {
  Square,        ///< one row per free unknown: A x = b
  LeastSquares,  ///< more rows than unknowns: min ||W^1/2 (A x - b)||^2
};
const char* systemModeName(SystemMode mode);

/// A built system, on the CPU. Unknowns are the free scalars, numbered in variable order
/// (free variable k's component c is unknown k * blockSize + c), so blocks stay aligned.
class LinearSystem {
 public:
  const std::string& name() const { return m_name; }
  SystemMode mode() const { return m_mode; }
  int blockSize() const { return m_blockSize; }
  int systems() const { return m_systems; }
  std::size_t variables() const { return m_variables; }
  /// Scalars of all variables (variables() * blockSize()).
  std::size_t scalars() const { return m_variables * std::size_t(m_blockSize); }
  /// Free scalars: the unknowns, n.
  std::size_t unknowns() const { return m_scalarOfUnknown.size(); }
  std::size_t rowCount() const { return m_rows.rows; }

  /// Unknown index of scalar s (variable s / blockSize, component s % blockSize), or -1
  /// where the scalar is locked.
  const std::vector<std::int32_t>& unknownOfScalar() const { return m_unknownOfScalar; }
  /// Scalar index of each unknown.
  const std::vector<std::int32_t>& scalarOfUnknown() const { return m_scalarOfUnknown; }
  bool isLocked(std::size_t variable) const;

  /// The rows over the unknowns, each scaled by its row scale (sqrt(w) in least squares,
  /// w in a square system): m x n. Least squares minimises ||rows() x - rhs||^2.
  const Csr& rows() const { return m_rows; }
  /// The row scales (sqrt(w) or w).
  const std::vector<double>& rowScales() const { return m_rowScale; }
  /// The scaled right-hand side of system k, locked scalars moved over: m values,
  /// scale_r (rhs_r - sum_{locked j} a_rj x_j).
  std::vector<double> scaledRhs(int system) const;

  /// The SPD matrix CG solves: rows()^T rows() (least squares) or rows() (square), n x n.
  /// Computed on each call (the normal product costs as much as a few CG iterations).
  Csr matrix() const;
  /// Its right-hand side for system k: rows()^T scaledRhs(k) or scaledRhs(k), n values.
  std::vector<double> rhs(int system) const;
  /// Whether matrix() is symmetric (always for least squares), checked entry by entry
  /// within a relative 1e-12.
  bool symmetric() const;

  /// Values of system k's unknowns before a solve (an initial guess, 0 unless set with
  /// SystemBuilder::setValue): n values.
  std::vector<double> initialGuess(int system) const;
  /// The value of every scalar of system k (scalars() values) from the unknowns' values:
  /// locked scalars get their locked values.
  std::vector<double> expand(std::span<const double> unknownValues, int system) const;
  /// Locked values of system k, one per scalar (0 at free scalars).
  std::vector<double> lockedValues(int system) const;
  /// The weighted objective sum_r w_r (a_r . x - rhs_r)^2 of system k for every scalar's
  /// value (scalars() values, locked ones included), in double precision.
  double objective(std::span<const double> scalarValues, int system) const;

  // Changes that keep the matrix: the solver then needs only new right-hand sides
  // (solvers::SystemSolver::updateRightHandSides).
  /// New locked values of variable v (blockSize() * systems() values, component c of
  /// system k at k * blockSize() + c). std::invalid_argument when v is not locked or a
  /// value is not finite.
  void setLockedValues(std::size_t variable, std::span<const double> values);
  /// New right-hand sides of row r (systems() values, finite).
  void setRowRhs(std::size_t row, std::span<const double> values);
  /// New right-hand sides of every row for system k (rowCount() values, finite).
  void setRowRhs(int system, std::span<const double> values);
  /// New initial guesses for system k's unknowns (unknowns() values, finite).
  void setInitialGuess(int system, std::span<const double> values);

 private:
  friend class SystemBuilder;
  void requireSystem(const char* where, int system) const;

  std::string m_name;
  SystemMode m_mode = SystemMode::LeastSquares;
  int m_blockSize = 1, m_systems = 1;
  std::size_t m_variables = 0;
  std::vector<std::int32_t> m_unknownOfScalar, m_scalarOfUnknown;
  Csr m_rows;    ///< scaled coefficients of the unknowns, m x n
  Csr m_locked;  ///< scaled coefficients of the locked scalars, m x scalars()
  std::vector<double> m_rowScale;
  std::vector<double> m_rowRhs;         ///< unscaled rhs, system k's at k * m + r
  std::vector<double> m_lockedValues;   ///< system k's at k * scalars() + s
  std::vector<double> m_initialGuess;   ///< system k's at k * n + unknown
};

class SystemBuilder {
 public:
  /// `variables` >= 1 variables of `blockSize` (1, 2 or 4) scalars each, `systems` >= 1
  /// right-hand sides; all variables free, initial guesses 0. std::invalid_argument
  /// otherwise, or when the scalars exceed 2^31 - 1.
  SystemBuilder(std::size_t variables, SystemMode mode, std::string name, int blockSize = 1, int systems = 1);

  // ---- Variables (any time before build()) ---------------------------------------
  /// Locks variable v to `values` (blockSize * systems values: component c of system k at
  /// k * blockSize + c). Locking again replaces the values.
  void lock(std::size_t variable, std::span<const double> values);
  /// Scalar variables of a single system: lock(v, {value}).
  void lock(std::size_t variable, double value);
  /// Frees a locked variable.
  void unlock(std::size_t variable);
  bool isLocked(std::size_t variable) const;
  /// The initial guess of a free variable (same value layout as lock()).
  void setValue(std::size_t variable, std::span<const double> values);

  // ---- Rows ------------------------------------------------------------------------
  /// Room for `rows` more rows holding `coefficients` more coefficients in all, so that a
  /// large system (a mesh's rows) is not copied as it grows. A hint: more may follow.
  void reserve(std::size_t rows, std::size_t coefficients);
  void beginRow();
  /// Adds a * x(variable, component) to the current row (repeats are summed).
  void coefficient(std::size_t variable, int component, double a);
  /// blockSize 1: adds a * x(variable).
  void coefficient(std::size_t variable, double a);
  /// Closes the row with its right-hand sides (systems() values) and weight (> 0).
  void endRow(std::span<const double> rhs, double weight = 1.0);
  /// systems() == 1: endRow({rhs}, weight).
  void endRow(double rhs = 0.0, double weight = 1.0);

  std::size_t rowCount() const { return m_rowWeight.size(); }
  std::size_t variables() const { return m_variables; }
  int blockSize() const { return m_blockSize; }
  int systems() const { return m_systems; }
  const std::string& name() const { return m_name; }

  /// The system (see the file comment for what is checked). The builder stays usable.
  LinearSystem build() const;

 private:
  /// "system \"name\": row 12: " (or "system \"name\": " outside rows)
  std::string where(bool inRow) const;
  void requireVariable(const char* what, std::size_t variable, bool inRow) const;
  void requireValues(const char* what, std::size_t variable, std::span<const double> values) const;

  std::string m_name;
  SystemMode m_mode;
  int m_blockSize, m_systems;
  std::size_t m_variables;
  std::vector<std::uint8_t> m_locked;
  std::vector<double> m_values;  ///< locked values or initial guesses, variable v's at v * blockSize * systems
  // Rows: scalar indices and coefficients, CSR-like.
  std::vector<std::int64_t> m_rowStart{0};
  std::vector<std::int32_t> m_scalar;
  std::vector<double> m_coefficient;
  std::vector<double> m_rhs;  ///< systems() per row
  std::vector<double> m_rowWeight;
  bool m_inRow = false;
};

}  // namespace texstream::linalg
