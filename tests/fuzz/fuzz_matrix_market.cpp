// libFuzzer target: the Matrix Market readers on arbitrary bytes, each input read three
// ways: as a sparse matrix (what texstream-solve reads), with the options of codegen's
// linear-expression files (dense array files, repeated entries refused), and as a vector.
// Each may only throw MatrixMarketError or return what the header promises: a well-formed
// CSR matrix (Csr::validate) or a vector, with finite values only.
//
// The dimension limit is lower than the default so that every input stays fast (a size
// line at the default limit allocates hundreds of megabytes, legitimately); the check that
// enforces it is the same.
#include "FuzzTarget.h"

#include <texstream/linalg/MatrixMarket.h>

#include <algorithm>
#include <cmath>

namespace {

using namespace texstream::linalg;
using texstream::fuzz::require;

constexpr std::size_t kMaxDimension = std::size_t(1) << 20;

bool allFinite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

void readMatrix(std::string_view text, const MatrixMarketOptions& options) {
  MatrixMarketHeader header;
  const Csr A = parseMatrixMarket(text, "fuzz.mtx", options, &header);
  A.validate("fuzz");  // throws std::invalid_argument, which the target does not expect
  require(A.rows == header.rows && A.cols == header.cols, "the matrix has the size line's shape");
  require(allFinite(A.values), "matrix values are finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = texstream::fuzz::bytes(data, size);
  texstream::fuzz::expectOnly<MatrixMarketError>([&] { readMatrix(text, {.maxDimension = kMaxDimension}); });
  texstream::fuzz::expectOnly<MatrixMarketError>(
      [&] { readMatrix(text, {.array = true, .rejectDuplicates = true, .maxDimension = kMaxDimension}); });
  texstream::fuzz::expectOnly<MatrixMarketError>([&] {
    const std::vector<double> v = parseMatrixMarketVector(text, "fuzz.mtx", kMaxDimension);
    require(allFinite(v), "vector values are finite");
  });
  return 0;
}
