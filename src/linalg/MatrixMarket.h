#pragma once
// Matrix Market files (NIST, https://math.nist.gov/MatrixMarket/formats.html) in and out.
//
// Read: `%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric|skew-symmetric`
// as a Csr (symmetric and skew-symmetric files store one triangle, which is mirrored;
// pattern entries are 1; duplicates are summed; explicit zeros stay stored entries), and,
// with MatrixMarketOptions::array, dense `array real|integer` files too. Vectors:
// `matrix array real|integer general` n x 1 (or coordinate n x 1, missing entries 0).
// Comment lines (%) and blank lines are skipped anywhere; tokens are separated by any
// white space.
// Every problem throws MatrixMarketError whose what() is "file:line: message", e.g.
//   A.mtx:7: entry 4 of 9: row index 0 is outside [1, 5]
//   A.mtx:12: expected 9 entries, the file ends after 8
// Nothing is allocated on the size line's word: storage for entries grows with the entries
// the file holds, and the dimensions, which cost memory (the CSR row pointer, a vector)
// without costing bytes in the file, are refused beyond a limit (maxDimension) before
// anything is allocated. Duplicates that sum beyond the range of a double are an error on
// the line of the entry that overflows.
// Write: matrices as coordinate real general (or symmetric: the lower triangle), vectors as
// array real general, values with 17 significant digits (exact round trip of a double).
#include <texstream/linalg/Csr.h>

#include <iosfwd>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace texstream::linalg {

/// A malformed or unsupported Matrix Market file: what() = "file:line: message".
class MatrixMarketError : public std::invalid_argument {
 public:
  MatrixMarketError(const std::string& file, long line, const std::string& message);
  const std::string& file() const { return m_file; }
  long line() const { return m_line; }  ///< 1-based; 0 when the file could not be opened
 private:
  std::string m_file;
  long m_line = 0;
};

/// What the banner line says.
struct MatrixMarketHeader {
  std::string format;    ///< "coordinate" or "array"
  std::string field;     ///< "real", "integer" or "pattern"
  std::string symmetry;  ///< "general", "symmetric" or "skew-symmetric"
  /// entries: the values the data section holds (coordinate: its lines; array: rows x cols,
  /// or the stored triangle of a square symmetric / skew-symmetric file)
  std::size_t rows = 0, cols = 0, entries = 0;
};

/// The default limit on rows and columns: 2^26, a row pointer of 512 MiB at most.
inline constexpr std::size_t kMatrixMarketMaxDimension = std::size_t(1) << 26;

/// What parseMatrixMarket accepts beyond sparse coordinate files, and how it treats repeats.
struct MatrixMarketOptions {
  /// Also read dense `array real|integer` files, column by column: general (all rows x cols
  /// values), symmetric (the lower triangle with the diagonal) or skew-symmetric (below the
  /// diagonal). Every value, zeros included, becomes a stored entry.
  bool array = false;
  /// A (row, column) given twice in a coordinate file is an error ("A.mtx:4: entry 2 of 2:
  /// duplicate entry (1, 2), first given on line 3") instead of being summed.
  bool rejectDuplicates = false;
  /// Rows or columns beyond it are refused ("A.mtx:2: ... beyond the limit of ...") before
  /// anything is allocated.
  std::size_t maxDimension = kMatrixMarketMaxDimension;
};

/// A sparse matrix from a coordinate file. `header` receives the banner and sizes.
Csr readMatrixMarket(const std::string& path, MatrixMarketHeader* header = nullptr);
Csr readMatrixMarket(const std::string& path, const MatrixMarketOptions& options, MatrixMarketHeader* header = nullptr);
/// The same from text already in memory; `name` is used as the file in error messages.
Csr parseMatrixMarket(std::string_view text, const std::string& name, MatrixMarketHeader* header = nullptr);
Csr parseMatrixMarket(std::string_view text, const std::string& name, const MatrixMarketOptions& options,
                      MatrixMarketHeader* header = nullptr);

/// A vector: an n x 1 array (or coordinate) file; n beyond maxDimension is refused.
std::vector<double> readMatrixMarketVector(const std::string& path, std::size_t maxDimension = kMatrixMarketMaxDimension);
std::vector<double> parseMatrixMarketVector(std::string_view text, const std::string& name,
                                            std::size_t maxDimension = kMatrixMarketMaxDimension);

/// Coordinate real general (every stored entry), or symmetric (entries on or below the
/// diagonal only; the caller asserts A is symmetric). `comment` lines are written after
/// the banner with a leading %. Throws std::runtime_error when the file cannot be written.
void writeMatrixMarket(const std::string& path, const Csr& A, const std::string& comment = {}, bool symmetric = false);
std::string formatMatrixMarket(const Csr& A, const std::string& comment = {}, bool symmetric = false);
/// Array real general, n x 1.
void writeMatrixMarketVector(const std::string& path, std::span<const double> v, const std::string& comment = {});
std::string formatMatrixMarketVector(std::span<const double> v, const std::string& comment = {});

}  // namespace texstream::linalg
