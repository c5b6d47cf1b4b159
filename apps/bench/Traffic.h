#pragma once
// Bytes moved, for the GB/s columns. `gbps` counts what an operation moves in its own
// storage (for vector operations the same count as the peers); `gbps_written` counts what
// texstream's passes write, which is what bounds the fragment path (GPU.md).
#include <texstream/linalg/Csr.h>
#include <texstream/stream/Backend.h>
#include <texstream/stream/Layout.h>

#include <cstddef>

namespace texstream::bench {

/// Bytes written by a reduction of `layout` to one texel: each level sums k x k texels
/// (k = Runtime::reductionBlock(b), stream/Reduction.cpp) until one is left.
double reductionBytesWritten(const stream::Layout& layout, stream::Backend b);
/// Bytes of one RGBA32F texture holding n scalars in Layout::forSize(n).
double texelBytes(std::size_t n);
/// Bytes one CSR SpMV moves: values and column indices (4 bytes each in float/int32),
/// row pointers, x and y once.
double csrSpmvBytes(const linalg::Csr& A);

}  // namespace texstream::bench
