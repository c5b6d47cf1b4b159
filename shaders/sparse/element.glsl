// Element access by index for the sparse kernels (Bolz et al. 2003, §3.1.1: C holds the
// position of x_j in x's texture). Element e of a vector lives in texel e / 4, channel
// e % 4, texel t at (t % W, t / W) (stream/Layout.h).
#ifndef TEXSTREAM_SPARSE_ELEMENT_GLSL
#define TEXSTREAM_SPARSE_ELEMENT_GLSL

// Texel t of a texture 2^shift texels wide.
ivec2 texelAtShift(int t, int shift) { return ivec2(t & ((1 << shift) - 1), t >> shift); }

// Texel `index` of a texture 2^shift texels wide (shift >= 2) whose texels are numbered in
// 4 x 8 tiles, 32 consecutive indices a tile, tiles in rows of 2^shift / 4 (the values
// textures of SegmentMatrix and of BcrsMatrix's interleaved blocks; linalg/TextureTiles.h
// says why).
ivec2 tiledTexelAtShift(int index, int shift) {
  int tile = index >> 5, within = index & 31, tileShift = shift - 2;
  return ivec2(((tile & ((1 << tileShift) - 1)) << 2) | (within & 3), ((tile >> tileShift) << 3) | (within >> 2));
}

// Element e (>= 0, inside the texture) of a vector whose texture is 2^shift texels wide:
// one fetch, two shifts, no division (the internal layouts of SegmentMatrix).
float fetchElementShift(sampler2D x, int e, int shift) {
  return texelFetch(x, texelAtShift(e >> 2, shift), 0)[e & 3];
}

// Element e of a vector of any layout (width from the texture); 0 for e < 0 or past the
// texture.
float fetchElement(sampler2D x, int e) {
  ivec2 size = textureSize(x, 0);
  int t = e >> 2;
  if (e < 0 || t >= size.x * size.y) return 0.0;
  return texelFetch(x, ivec2(t % size.x, t / size.x), 0)[e & 3];
}

#endif
