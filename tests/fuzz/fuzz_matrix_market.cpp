// libFuzzer target: the Matrix Market readers on arbitrary bytes, each input read three
// ways: as a sparse matrix (what texstream-solve reads), with the options of codegen's
// linear-expression files (dense array files, repeated entries refused), and as a vector.
// Each may only return or throw MatrixMarketError.
//
// The dimension limit is lower than the default so that every input stays fast (a size
// line at the default limit allocates hundreds of megabytes, legitimately); the check that
// enforces it is the same.
#include "FuzzTarget.h"

#include <texstream/linalg/MatrixMarket.h>

namespace {
constexpr std::size_t kMaxDimension = std::size_t(1) << 20;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace texstream::linalg;
  const std::string_view text = texstream::fuzz::bytes(data, size);
  texstream::fuzz::expectOnly<MatrixMarketError>(
      [&] { parseMatrixMarket(text, "fuzz.mtx", MatrixMarketOptions{.maxDimension = kMaxDimension}); });
  texstream::fuzz::expectOnly<MatrixMarketError>([&] {
    parseMatrixMarket(text, "fuzz.mtx", {.array = true, .rejectDuplicates = true, .maxDimension = kMaxDimension});
  });
  texstream::fuzz::expectOnly<MatrixMarketError>([&] { parseMatrixMarketVector(text, "fuzz.mtx", kMaxDimension); });
  return 0;
}
