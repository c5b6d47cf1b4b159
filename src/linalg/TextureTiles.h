#pragma once
// texstream::linalg texture tiles: the texel numbering of the sparse matrices' values
// textures (BcrsMatrix's interleaved 2x2 blocks, SegmentMatrix's segments). GPUs store a
// texture in 2D tiles (NVIDIA: 64 bytes by 8 rows, 4 x 8 RGBA32F texels), so a row of 32
// texels spans eight tiles. Numbered here, 32 consecutive indices fill one 4 x 8 tile and
// tiles follow each other in rows of width / 4: the 32 neighbouring entries one subgroup
// reads come from one tile. The shaders' side is tiledTexelAtShift (sparse/element.glsl).
#include <algorithm>
#include <cstddef>

namespace texstream::linalg {

struct TexelPosition {
  std::size_t x = 0, y = 0;
};

/// Where texel `index` sits in a texture `width` texels wide (a multiple of 4).
inline TexelPosition tiledTexel(std::size_t index, std::size_t width) {
  const std::size_t tile = index / 32, within = index % 32, tilesPerRow = width / 4;
  return {(tile % tilesPerRow) * 4 + within % 4, (tile / tilesPerRow) * 8 + within / 4};
}

/// Rows of a texture `width` texels wide (a multiple of 4) that holds `count` tiled
/// texels: whole tiles, at least one.
inline std::size_t tiledRows(std::size_t count, std::size_t width) {
  const std::size_t rows = std::max<std::size_t>(1, (count + width - 1) / width);
  return (rows + 7) / 8 * 8;
}

}  // namespace texstream::linalg
