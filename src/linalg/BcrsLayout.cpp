// Buatois et al. 2008 (the Concurrent Number Cruncher), §2.2.3 register blocking and §2.3.3
// storage on vector GPUs: every B x B block holding a non-zero stored whole, the 4x4 values
// in four sub-arrays read at one index.
#include <texstream/linalg/BcrsLayout.h>

#include <texstream/gl/Error.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/RowBlocks.h>
#include <texstream/linalg/TextureTiles.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace texstream::linalg {

void requireBcrsInput(const Csr& A, int blockSize, const std::string& where) {
  A.validate(where);
  A.requireSquare(where);
  if (A.rows == 0) throw std::invalid_argument(where + ": the matrix has no rows");
  if (blockSize != 2 && blockSize != 4) {
    throw std::invalid_argument(where + ": block size " + std::to_string(blockSize) + " (2 or 4 supported)");
  }
  if (A.rows >= kExactFloatLimit) {
    throw gl::Error(where + ": n = " + std::to_string(A.rows) + " (indices are exact floats: below 2^24)");
  }
}

BcrsBlocks blockRows(const Csr& M, int B) {
  const std::size_t n = M.rows;
  BcrsBlocks blocks;
  blocks.blockSize = B;
  blocks.blockRows = (n + std::size_t(B) - 1) / std::size_t(B);
  blocks.start.assign(blocks.blockRows + 1, 0);
  blocks.diagonal.assign(n, 0.0f);
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
  forRowBlocks(blocks.blockRows, threads, [&](unsigned, std::size_t first, std::size_t last) {
    std::vector<std::int32_t> columns;
    for (std::size_t I = first; I < last; ++I) {
      blockColumnsOf(I, columns);
      blocks.start[I + 1] = std::int64_t(columns.size());
    }
  });
  for (std::size_t I = 0; I < blocks.blockRows; ++I) blocks.start[I + 1] += blocks.start[I];
  resizeLarge(blocks.column, std::size_t(blocks.start[blocks.blockRows]));
  assignLarge(blocks.values, blocks.column.size() * std::size_t(B * B), 0.0f);
  forRowBlocks(blocks.blockRows, threads, [&](unsigned, std::size_t first, std::size_t last) {
    std::vector<std::int32_t> columns;
    std::vector<std::int32_t> slotOf(n / std::size_t(B) + 2, -1);
    for (std::size_t I = first; I < last; ++I) {
      blockColumnsOf(I, columns);
      const std::size_t base = std::size_t(blocks.start[I]);
      for (std::size_t k = 0; k < columns.size(); ++k) {
        slotOf[std::size_t(columns[k])] = std::int32_t(base + k);
        blocks.column[base + k] = columns[k];
      }
      const std::size_t r0 = I * std::size_t(B), r1 = std::min(n, r0 + std::size_t(B));
      for (std::size_t r = r0; r < r1; ++r) {
        for (std::int64_t e = M.rowPtr[r]; e < M.rowPtr[r + 1]; ++e) {
          const std::int32_t j = M.colIdx[std::size_t(e)];
          const std::size_t b = std::size_t(slotOf[std::size_t(j / B)]);
          const float v = float(M.values[std::size_t(e)]);
          blocks.values[b * std::size_t(B * B) + (r - r0) * std::size_t(B) + std::size_t(j % B)] += v;
          if (std::size_t(j) == r) blocks.diagonal[r] += v;
        }
      }
    }
  });
  return blocks;
}

BcrsTextureShape blockTextureShape(std::size_t stored, bool interleaved) {
  BcrsTextureShape s;
  s.width = std::size_t(pow2Width(stored, 4));
  s.height = std::max<std::size_t>(1, (stored + s.width - 1) / s.width);
  s.valuesHeight = interleaved ? tiledRows(stored, s.width) : s.height;
  return s;
}

BcrsPlacement placeBlocks(const BcrsBlocks& blocks, std::size_t usedTexels, bool interleave, bool mayFallBack,
                          int maxTextureSize) {
  constexpr std::size_t S = kBcrsInterleaveTexels;
  // Whether `stored` slots fit exact-float indices and textures of at most maxTextureSize
  // texels a side.
  auto fits = [&](std::size_t stored, bool interleaved) {
    const BcrsTextureShape shape = blockTextureShape(stored, interleaved);
    return stored < kExactFloatLimit && shape.width <= std::size_t(maxTextureSize) &&
           shape.valuesHeight <= std::size_t(maxTextureSize);
  };
  BcrsPlacement p;
  p.interleaved = interleave;
  p.slotOfBlock.resize(blocks.count());
  p.texelFirst.resize(usedTexels);
  p.stored = blocks.count();
  // The interleaved layout: per slice, its longest block row.
  std::vector<std::size_t> sliceLongest;
  if (p.interleaved) {
    std::size_t padded = 0;
    for (std::size_t s0 = 0; s0 < usedTexels; s0 += S) {
      std::size_t longest = 0;
      for (std::size_t I = 2 * s0; I < std::min(blocks.blockRows, 2 * (s0 + S)); ++I)
        longest = std::max(longest, blocks.inRow(I));
      sliceLongest.push_back(longest);
      padded += 2 * S * longest;
    }
    if (mayFallBack && !fits(padded, true) && fits(blocks.count(), false)) p.interleaved = false;
  }
  if (p.interleaved) {
    p.stored = 0;
    for (std::size_t s0 = 0; s0 < usedTexels; s0 += S) {
      const std::size_t s1 = std::min(usedTexels, s0 + S);
      for (std::size_t t = s0; t < s1; ++t) {
        p.texelFirst[t] = p.stored + (t - s0);
        for (std::size_t h = 0; h < 2 && 2 * t + h < blocks.blockRows; ++h) {
          const std::size_t I = 2 * t + h;
          for (std::size_t k = 0; k < blocks.inRow(I); ++k)
            p.slotOfBlock[std::size_t(blocks.start[I]) + k] = p.stored + k * 2 * S + h * S + (t - s0);
        }
      }
      p.stored += 2 * S * sliceLongest[s0 / S];
    }
  } else {
    std::iota(p.slotOfBlock.begin(), p.slotOfBlock.end(), std::size_t(0));
    const std::size_t rowsPerTexel = blocks.blockSize == 4 ? 1 : 2;
    for (std::size_t t = 0; t < usedTexels; ++t) p.texelFirst[t] = std::size_t(blocks.start[t * rowsPerTexel]);
  }
  return p;
}

void valueLayer(const BcrsBlocks& blocks, const BcrsPlacement& placement, const BcrsTextureShape& shape, int layer,
                std::vector<float>& texels) {
  const std::size_t size = 4 * shape.width * shape.valuesHeight, B = std::size_t(blocks.blockSize);
  if (texels.size() == size) {
    std::fill(texels.begin(), texels.end(), 0.0f);
  } else {
    texels.clear();
    resizeLarge(texels, size);  // zero-filled
  }
  // Blocks are copied to their slots on threads (RowBlocks.h; each block has its own slot).
  forRowBlocks(blocks.count(), workThreads(double(blocks.count()) * 4.0), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b) {
      // B = 4: layer l = row l of the block; B = 2: the whole 2x2 block in one texel.
      std::size_t valueTexel = placement.slotOfBlock[b];
      if (placement.interleaved) {
        const TexelPosition at = tiledTexel(placement.slotOfBlock[b], shape.width);
        valueTexel = at.y * shape.width + at.x;
      }
      std::copy_n(blocks.values.begin() + std::ptrdiff_t(b * B * B + std::size_t(layer) * 4), 4,
                  texels.begin() + std::ptrdiff_t(4 * valueTexel));
    }
  });
}

std::vector<float> blockColumnTexels(const BcrsBlocks& blocks, const BcrsPlacement& placement,
                                     const BcrsTextureShape& shape) {
  std::vector<float> columns = largeArray(shape.width * shape.height, 0.0f);  // padding: column 0
  forRowBlocks(blocks.count(), workThreads(double(blocks.count())), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b) columns[placement.slotOfBlock[b]] = float(blocks.column[b]);
  });
  return columns;
}

std::vector<float> rowBlockTexels(const BcrsBlocks& blocks, const BcrsPlacement& placement, std::size_t usedTexels) {
  std::vector<float> rows = largeArray(4 * usedTexels, 0.0f);
  const std::size_t rowsPerTexel = blocks.blockSize == 4 ? 1 : 2;
  for (std::size_t t = 0; t < usedTexels; ++t) {
    const std::size_t I0 = t * rowsPerTexel;
    rows[4 * t] = float(placement.texelFirst[t]);
    rows[4 * t + 1] = float(blocks.inRow(I0));
    if (rowsPerTexel == 2 && I0 + 1 < blocks.blockRows) rows[4 * t + 2] = float(blocks.inRow(I0 + 1));
  }
  return rows;
}

BcrsPlan planBcrs(const Csr& M, int blockSize, std::size_t usedTexels, std::optional<bool> interleave,
                  bool interleaveByDefault, int maxTextureSize, const std::string& where) {
  BcrsPlan plan;
  plan.blocks = blockRows(M, blockSize);
  const bool interleaved = blockSize == 2 && interleave.value_or(interleaveByDefault);
  plan.placement = placeBlocks(plan.blocks, usedTexels, interleaved, !interleave.has_value(), maxTextureSize);
  const std::size_t stored = plan.placement.stored;
  if (stored >= kExactFloatLimit) {
    throw gl::Error(where + ": " + std::to_string(stored) +
                    " stored blocks; block indices are exact floats, so fewer than 2^24");
  }
  // The column texture and the values texture share the width; interleaved, the values
  // texture is rounded up to whole tiles.
  plan.shape = blockTextureShape(stored, plan.placement.interleaved);
  if (plan.shape.width > std::size_t(maxTextureSize) || plan.shape.valuesHeight > std::size_t(maxTextureSize)) {
    throw gl::Error(where + ": " + std::to_string(stored) + " blocks need a " + std::to_string(plan.shape.width) + "x" +
                    std::to_string(plan.shape.valuesHeight) + " texture, beyond this GPU's maximum texture size " +
                    std::to_string(maxTextureSize));
  }
  return plan;
}

}  // namespace texstream::linalg
