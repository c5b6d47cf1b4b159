#include "Traffic.h"

#include <texstream/stream/Runtime.h>

namespace texstream::bench {

double reductionBytesWritten(const stream::Layout& layout, stream::Backend b) {
  const int k = stream::Runtime::current().reductionBlock(b);
  double bytes = 0;
  int w = layout.width(), h = layout.height();
  do {
    w = (w + k - 1) / k;
    h = (h + k - 1) / k;
    bytes += 16.0 * w * h;
  } while (w > 1 || h > 1);
  return bytes;
}

double texelBytes(std::size_t n) { return double(stream::Layout::forSize(n).texels()) * 16.0; }

double csrSpmvBytes(const linalg::Csr& A) {
  return 8.0 * double(A.nonZeros()) + 4.0 * double(A.rows + 1) + 4.0 * double(A.cols) + 4.0 * double(A.rows);
}

}  // namespace texstream::bench
