#pragma once
// texstream::linalg index textures: the sparse formats keep their indices (column positions,
// segment starts, block numbers, permutations) as floats in textures, which hold every
// integer below 2^24 exactly, and shape those textures 2^k texels wide so that kernels
// address them with shifts and masks (shaders/sparse/element.glsl).
#include <algorithm>
#include <cmath>
#include <cstddef>

namespace texstream::linalg {

/// Integers below this are exact in a float (24-bit significand): the bound on every index
/// a texture stores and on the element counts such indices address.
inline constexpr std::size_t kExactFloatLimit = std::size_t(1) << 24;

/// The smallest s with 2^s >= v (0 for v <= 1).
inline int log2Ceil(std::size_t v) {
  int s = 0;
  while ((std::size_t(1) << s) < v) ++s;
  return s;
}

/// The width of a near-square texture of `texels` texels that kernels address with shifts:
/// the smallest power of two >= max(minimum, ceil(sqrt(texels))).
inline int pow2Width(std::size_t texels, int minimum = 1) {
  const std::size_t root = std::size_t(std::ceil(std::sqrt(double(std::max<std::size_t>(texels, 1)))));
  return 1 << log2Ceil(std::max<std::size_t>(root, std::size_t(minimum)));
}

}  // namespace texstream::linalg
