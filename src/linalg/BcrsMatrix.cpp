// Buatois et al. 2008 (the Concurrent Number Cruncher), §2.2.3 and §2.3.3: BCRS with 2x2
// and 4x4 blocks, the 4x4 values in four sub-arrays read at one index, x read once per
// block; optional reverse Cuthill–McKee before blocking.
#include <texstream/linalg/BcrsMatrix.h>

#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/LargeArrays.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/FusedProductDot.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/RowBlocks.h>
#include <texstream/linalg/TextureTiles.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace texstream::linalg {

namespace {
/// The block textures' shape for `stored` blocks: 2^k texels wide (at least 4), near
/// square. Interleaved, the values texture's texels are numbered in tiles (TextureTiles.h),
/// so its height is a whole number of tiles.
std::pair<std::size_t, std::size_t> blockTextureShape(std::size_t stored, bool tiledValues = false) {
  const std::size_t width = std::size_t(pow2Width(stored, 4));
  return {width, tiledValues ? tiledRows(stored, width) : std::max<std::size_t>(1, (stored + width - 1) / width)};
}
}  // namespace

BcrsMatrix::BcrsMatrix(const Csr& A, std::string name, BcrsOptions options)
    : PermutedMatrix("BcrsMatrix", std::move(name), A.rows), m_options(options) {
  const std::string title = this->title();
  A.validate(title);
  A.requireSquare(title);
  if (A.rows == 0) throw std::invalid_argument(title + ": the matrix has no rows");
  const int B = options.blockSize;
  if (B != 2 && B != 4) throw std::invalid_argument(title + ": block size " + std::to_string(B) + " (2 or 4 supported)");
  const std::size_t n = A.rows;
  if (n >= kExactFloatLimit) throw gl::Error(title + ": n = " + std::to_string(n) + " (indices are exact floats: below 2^24)");
  m_nonZeros = A.nonZeros();

  std::vector<std::int32_t> order;
  if (options.reverseCuthillMcKee) order = reverseCuthillMcKee(A);
  const Csr P = order.empty() ? Csr{} : permuteSymmetric(A, order);
  const Csr& M = order.empty() ? A : P;  // the internally ordered matrix
  m_bandwidth = bandwidth(M);

  gl::StateGuard guard;
  const stream::Layout layout = stream::Layout::forSize(n);
  std::vector<std::int32_t> userToInternal(n);
  if (order.empty()) {
    std::iota(userToInternal.begin(), userToInternal.end(), 0);
  } else {
    for (std::size_t k = 0; k < n; ++k) userToInternal[std::size_t(order[k])] = std::int32_t(k);
  }
  setPermutation(RowPermutation(userToInternal, layout, this->name()));

  // Blocks per block row, by increasing block column; values accumulated (duplicates summed).
  const std::size_t blockRows = (n + std::size_t(B) - 1) / std::size_t(B);
  std::vector<std::int64_t> blockStart(blockRows + 1, 0);
  std::vector<std::int32_t> blockColumn;
  std::vector<float> blockValue;  // B*B per block, row-major
  std::vector<float> diagonal(layout.paddedSize(), 0.0f);
  // The block columns of block row I, ascending and distinct, into `columns`.
  auto blockColumnsOf = [&](std::size_t I, std::vector<std::int32_t>& columns) {
    columns.clear();
    const std::size_t r0 = I * std::size_t(B), r1 = std::min(n, r0 + std::size_t(B));
    for (std::size_t r = r0; r < r1; ++r) {
      for (std::int64_t e = M.rowPtr[r]; e < M.rowPtr[r + 1]; ++e) columns.push_back(M.colIdx[std::size_t(e)] / B);
    }
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  };
  // Two passes over blocks of block rows on threads (RowBlocks.h): the blocks per block
  // row, then each block row's columns and values written in place.
  const unsigned threads = workThreads(double(M.nonZeros()));
  forRowBlocks(blockRows, threads, [&](unsigned, std::size_t first, std::size_t last) {
    std::vector<std::int32_t> columns;
    for (std::size_t I = first; I < last; ++I) {
      blockColumnsOf(I, columns);
      blockStart[I + 1] = std::int64_t(columns.size());
    }
  });
  for (std::size_t I = 0; I < blockRows; ++I) blockStart[I + 1] += blockStart[I];
  resizeLarge(blockColumn, std::size_t(blockStart[blockRows]));
  assignLarge(blockValue, blockColumn.size() * std::size_t(B * B), 0.0f);
  forRowBlocks(blockRows, threads, [&](unsigned, std::size_t first, std::size_t last) {
    std::vector<std::int32_t> columns;
    std::vector<std::int32_t> slotOf(n / std::size_t(B) + 2, -1);
    for (std::size_t I = first; I < last; ++I) {
      blockColumnsOf(I, columns);
      const std::size_t base = std::size_t(blockStart[I]);
      for (std::size_t k = 0; k < columns.size(); ++k) {
        slotOf[std::size_t(columns[k])] = std::int32_t(base + k);
        blockColumn[base + k] = columns[k];
      }
      const std::size_t r0 = I * std::size_t(B), r1 = std::min(n, r0 + std::size_t(B));
      for (std::size_t r = r0; r < r1; ++r) {
        for (std::int64_t e = M.rowPtr[r]; e < M.rowPtr[r + 1]; ++e) {
          const std::int32_t j = M.colIdx[std::size_t(e)];
          const std::size_t b = std::size_t(slotOf[std::size_t(j / B)]);
          blockValue[b * std::size_t(B * B) + (r - r0) * std::size_t(B) + std::size_t(j % B)] += float(M.values[std::size_t(e)]);
          if (std::size_t(j) == r) diagonal[r] += float(M.values[std::size_t(e)]);
        }
      }
    }
  });
  m_blocks = blockColumn.size();

  // Where each block is stored: in block-row order, or interleaved (see the header).
  const int maxSize = stream::Runtime::current().caps().maxTextureSize;
  // Whether `stored` blocks fit exact-float indices and textures of at most maxSize texels
  // a side.
  auto fits = [&](std::size_t stored, bool interleaved) {
    const auto [width, height] = blockTextureShape(stored, interleaved);
    return stored < kExactFloatLimit && width <= std::size_t(maxSize) && height <= std::size_t(maxSize);
  };
  m_interleaved = B == 2 && options.interleave.value_or(stream::Runtime::current().backend() == stream::Backend::Compute);
  const std::size_t usedTexels = layout.usedTexels();
  std::vector<std::size_t> slotOfBlock(m_blocks);
  std::vector<std::size_t> texelFirst(usedTexels);
  std::size_t stored = m_blocks;
  // The interleaved layout: per slice, its longest block row.
  std::vector<std::int64_t> sliceLongest;
  std::size_t padded = 0;
  if (m_interleaved) {
    for (std::size_t s0 = 0; s0 < usedTexels; s0 += kInterleaveTexels) {
      std::int64_t longest = 0;
      for (std::size_t I = 2 * s0; I < std::min(blockRows, 2 * (s0 + kInterleaveTexels)); ++I)
        longest = std::max(longest, blockStart[I + 1] - blockStart[I]);
      sliceLongest.push_back(longest);
      padded += 2 * kInterleaveTexels * std::size_t(longest);
    }
    // Its padding must not make a matrix that fits consecutively fail: chosen by default,
    // it gives way to the consecutive layout.
    if (!options.interleave.has_value() && !fits(padded, true) && fits(m_blocks, false)) m_interleaved = false;
  }
  if (m_interleaved) {
    stored = 0;
    for (std::size_t s0 = 0; s0 < usedTexels; s0 += kInterleaveTexels) {
      const std::size_t s1 = std::min(usedTexels, s0 + kInterleaveTexels);
      const std::int64_t longest = sliceLongest[s0 / kInterleaveTexels];
      for (std::size_t t = s0; t < s1; ++t) {
        texelFirst[t] = stored + (t - s0);
        for (std::size_t h = 0; h < 2 && 2 * t + h < blockRows; ++h) {
          const std::size_t I = 2 * t + h;
          for (std::int64_t k = 0; k < blockStart[I + 1] - blockStart[I]; ++k)
            slotOfBlock[std::size_t(blockStart[I] + k)] = stored + std::size_t(k) * 2 * kInterleaveTexels + h * kInterleaveTexels + (t - s0);
        }
      }
      stored += 2 * kInterleaveTexels * std::size_t(longest);
    }
  } else {
    std::iota(slotOfBlock.begin(), slotOfBlock.end(), std::size_t(0));
    for (std::size_t t = 0; t < usedTexels; ++t) texelFirst[t] = std::size_t(blockStart[t * (B == 4 ? 1 : 2)]);
  }
  m_storedBlocks = stored;
  if (m_storedBlocks >= kExactFloatLimit) {
    throw gl::Error(title + ": " + std::to_string(m_storedBlocks) +
                    " stored blocks; block indices are exact floats, so fewer than 2^24");
  }

  // The column texture and the values texture share the width; interleaved, the values
  // texture is rounded up to whole tiles.
  const auto [width, height] = blockTextureShape(m_storedBlocks);
  const std::size_t valuesHeight = m_interleaved ? tiledRows(m_storedBlocks, width) : height;
  if (width > std::size_t(maxSize) || valuesHeight > std::size_t(maxSize)) {
    throw gl::Error(title + ": " + std::to_string(m_storedBlocks) + " blocks need a " + std::to_string(width) + "x" +
                    std::to_string(valuesHeight) + " texture, beyond this GPU's maximum texture size " +
                    std::to_string(maxSize));
  }
  const int Wb = int(width), Hb = int(height), Hv = int(valuesHeight);
  const std::size_t texels = std::size_t(Wb) * std::size_t(Hb);
  const int layers = B == 4 ? 4 : 1;
  m_values = gl::Texture(Wb, Hv, gl::TextureFormat::RGBA32F, this->name() + ".blocks", layers);
  std::vector<float> layer;
  resizeLarge(layer, 4 * std::size_t(Wb) * std::size_t(Hv));  // zero-filled; zeroed again for each later layer
  std::vector<float> cols = largeArray(texels, 0.0f);
  // Blocks are copied to their slots on threads (RowBlocks.h; each block has its own slot).
  const unsigned copyThreads = workThreads(double(m_blocks) * 4.0);
  for (int l = 0; l < layers; ++l) {
    if (l > 0) std::fill(layer.begin(), layer.end(), 0.0f);
    forRowBlocks(m_blocks, copyThreads, [&](unsigned, std::size_t first, std::size_t last) {
      for (std::size_t b = first; b < last; ++b) {
        // B = 4: layer l = row l of the block; B = 2: the whole 2x2 block in one texel.
        std::size_t valueTexel = slotOfBlock[b];
        if (m_interleaved) {
          const TexelPosition at = tiledTexel(slotOfBlock[b], std::size_t(Wb));
          valueTexel = at.y * std::size_t(Wb) + at.x;
        }
        std::copy_n(blockValue.begin() + std::ptrdiff_t(b * std::size_t(B * B) + std::size_t(l) * 4), 4,
                    layer.begin() + std::ptrdiff_t(4 * valueTexel));
        if (l == 0) cols[slotOfBlock[b]] = float(blockColumn[b]);  // padding: column 0, value 0
      }
    });
    m_values.upload(layer.data(), l);
  }
  m_columns = gl::Texture(Wb, Hb, gl::TextureFormat::R32F, this->name() + ".blockColumns");
  m_columns.upload(cols.data());

  std::vector<float> rowsInfo = largeArray(layout.paddedSize(), 0.0f);
  const std::size_t perTexel = B == 4 ? 1 : 2;
  for (std::size_t t = 0; t < layout.usedTexels(); ++t) {
    const std::size_t I0 = t * perTexel;
    rowsInfo[4 * t] = float(texelFirst[t]);
    rowsInfo[4 * t + 1] = float(blockStart[I0 + 1] - blockStart[I0]);
    if (perTexel == 2 && I0 + 1 < blockRows) rowsInfo[4 * t + 2] = float(blockStart[I0 + 2] - blockStart[I0 + 1]);
  }
  m_rowBlocks = gl::Texture(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, this->name() + ".rowBlocks");
  m_rowBlocks.upload(rowsInfo.data());
  setDiagonal(stream::Vector(layout, this->name() + ".diagonal"));
  storedDiagonal().mutableTexture().upload(diagonal.data());
}

void BcrsMatrix::bindProduct(stream::Pass& pass, const stream::Vector& x) const {
  if (m_interleaved) pass.define("INTERLEAVED", kInterleaveTexels);
  pass.define("BLOCK", m_options.blockSize)
      .define("X_WIDTH", x.layout().width())
      .input("u_values", m_values)
      .input("u_columns", m_columns)
      .input("u_rows", m_rowBlocks)
      .input("u_x", x)
      .uniform("u_blockShift", log2Ceil(std::size_t(m_columns.width())));
}

bool BcrsMatrix::blockRowInvocations() const {
  return m_options.blockSize == 2 && stream::Runtime::current().backend() == stream::Backend::Compute;
}

void BcrsMatrix::applyInternal(const stream::Vector& x, stream::Vector& y) const {
  requireApplyShapes(title(), internalLayout(), cols(), x, y);
  gl::StateGuard guard;
  if (blockRowInvocations()) {
    const std::size_t texels = internalLayout().texels();
    stream::Pass pass("sparse/spmv_bcrs2_rows");
    bindProduct(pass, x);
    pass.label("spmv_bcrs 2x2").uniform("u_texels", int(texels)).uniform("u_width", internalLayout().width()).output(y);
    pass.workgroups(int((texels + 127) / 128)).run();
    return;
  }
  stream::Pass pass("sparse/spmv_bcrs");
  bindProduct(pass, x);
  pass.label(m_options.blockSize == 4 ? "spmv_bcrs 4x4" : "spmv_bcrs 2x2").output(y).run();
}

void BcrsMatrix::residualInternalInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                               stream::Vector& r) const {
  requireResidualShapes(title() + " (internal order)", internalLayout(), cols(), b, x, r);
  gl::StateGuard guard;
  stream::Pass pass("sparse/spmv_bcrs");
  bindProduct(pass, x.hi());
  pass.define("DOUBLE_FLOAT_RESIDUAL")
      .input("u_xLo", x.lo())
      .input("u_bHi", b.hi())
      .input("u_bLo", b.lo())
      .label(m_options.blockSize == 4 ? "spmv_bcrs 4x4 residual" : "spmv_bcrs 2x2 residual")
      .output(r)
      .run();
}

void BcrsMatrix::applyInternalAndDot(const stream::Vector& x, stream::Vector& y,
                                     const stream::Epilogue& epilogue) const {
  requireApplyShapes(title(), internalLayout(), cols(), x, y);
  if (x.layout() != internalLayout()) {
    throw gl::Error(title() + ".applyInternalAndDot: x (vector \"" + x.name() + "\") has " + x.layout().describe() +
                    "; y . x needs x in y's layout " + internalLayout().describe() + " (Layout::forSize)");
  }
  if (stream::Runtime::current().backend() != stream::Backend::Compute) {
    PermutedMatrix::applyInternalAndDot(x, y, epilogue);  // its reduction throws: epilogues are compute-only
    return;
  }
  gl::StateGuard guard;
  if (blockRowInvocations()) {
    const std::size_t texels = internalLayout().texels();
    const int groups = int((texels + 127) / 128);
    if (m_rowsDotScratch.id() == 0) {
      // A zero counter, then one partial per workgroup; the last workgroup resets the counter.
      const std::vector<unsigned char> zeros(16 + 4 * std::size_t(groups), 0);
      m_rowsDotScratch = gl::Buffer(name() + ".rows_dot_scratch", zeros.size(), zeros.data(), GL_DYNAMIC_COPY);
    }
    stream::Pass pass(stream::composeReductionKernel("sparse/spmv_bcrs2_rows", epilogue.include, 1));
    bindProduct(pass, x);
    pass.define("WITH_DOT").label("spmv_bcrs 2x2 + dot").output(y);
    pass.uniform("u_texels", int(texels)).uniform("u_width", internalLayout().width());
    pass.uniform("u_groupBase", 0).uniform("u_totalGroups", groups);
    epilogue.bind(pass);
    pass.storage(0, m_rowsDotScratch.id()).workgroups(groups).inPlace().run();
    return;
  }
  // One dispatch over y's whole texture (x shares its layout, so texel t of y meets texel
  // t of x).
  stream::Pass pass(stream::composeReductionKernel("sparse/spmv_bcrs_dot", epilogue.include, 1));
  bindProduct(pass, x);
  pass.label(m_options.blockSize == 4 ? "spmv_bcrs 4x4 + dot" : "spmv_bcrs 2x2 + dot").output(y);
  runProductWithDot(pass, internalLayout(), epilogue, m_dotScratch, name() + ".dot_scratch");
}

double BcrsMatrix::bytesPerApply() const {
  const double B = m_options.blockSize;
  const double texels = double(internalLayout().texels());
  return double(m_storedBlocks) * (B * B * 4 + 4) + double(m_blocks) * 16 + texels * (16 + 16);
}

double BcrsMatrix::flopsPerApply() const { return 2.0 * double(m_nonZeros); }

double BcrsMatrix::fillRatio() const {
  const double stored = double(m_blocks) * m_options.blockSize * m_options.blockSize;
  return stored == 0 ? 1.0 : double(m_nonZeros) / stored;
}

}  // namespace texstream::linalg
