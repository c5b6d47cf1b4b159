// Prepended to every kernel (after the generated #defines and output declarations).
// A kernel is `void kernel(ivec2 texel)`: it may read any texel of its inputs (gather)
// and writes only its own output texel through o_out0, o_out1, ... (Bolz et al. 2003, §2).
// Must stay GLSL 3.30: the fragment backend compiles kernels with #version 330 core.

// A scalar factor from the CPU (mode 0) or a GPU Scalar's .x, multiplied (1) or divided (2).
struct Coefficient {
  float factor;
  int mode;
  sampler2D scalar;
};
#define COEFFICIENT(c) ((c).mode == 0 ? (c).factor \
    : ((c).mode == 1 ? (c).factor * texelFetch((c).scalar, ivec2(0), 0).x \
                     : (c).factor / texelFetch((c).scalar, ivec2(0), 0).x))

// Texel t of a layout `width` texels wide sits at (t % width, t / width) (stream/Layout.h).
ivec2 texelCoord(int t, int width) { return ivec2(t % width, t / width); }
int texelIndex(ivec2 c, int width) { return c.y * width + c.x; }

// Texel t of x, or zero outside the texture.
vec4 fetchTexel(sampler2D x, int t) {
  ivec2 size = textureSize(x, 0);
  if (t < 0 || t >= size.x * size.y) return vec4(0.0);
  return texelFetch(x, ivec2(t % size.x, t / size.x), 0);
}

// Elements e, e+1, e+2, e+3 of vector x (element i in texel i/4, channel i%4), for any e:
// two texel fetches when e is not a multiple of 4. Zero outside the texture, and past n
// the padding is zero, so neighbours beyond either end read as 0.
vec4 fetchElements(sampler2D x, int e) {
  int t = e >= 0 ? e / 4 : -((3 - e) / 4);
  int r = e - 4 * t;
  vec4 a = fetchTexel(x, t);
  if (r == 0) return a;
  vec4 b = fetchTexel(x, t + 1);
  if (r == 1) return vec4(a.yzw, b.x);
  if (r == 2) return vec4(a.zw, b.xy);
  return vec4(a.w, b.xyz);
}

// Zeroes the channels of texel t that hold element indices >= n: the padding must stay
// zero (it is the identity of sum reductions). mix() with a bvec selects, so NaN in a
// padded channel (0/0) does not leak.
vec4 keepValid(vec4 v, int t, int n) {
  ivec4 index = ivec4(4 * t) + ivec4(0, 1, 2, 3);
  return mix(vec4(0.0), v, lessThan(index, ivec4(n)));
}
