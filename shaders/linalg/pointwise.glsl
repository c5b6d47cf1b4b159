// Element-wise z = x .* y (MULTIPLY) or z = x ./ y (DIVIDE). Division keeps the padding
// zero explicitly: there both operands are 0 and 0 / 0 is NaN.
uniform sampler2D u_x;
uniform sampler2D u_y;
uniform int u_n;
uniform int u_width;

void kernel(ivec2 texel) {
  vec4 x = texelFetch(u_x, texel, 0);
  vec4 y = texelFetch(u_y, texel, 0);
#if defined(MULTIPLY)
  o_out0 = x * y;
#elif defined(DIVIDE)
  o_out0 = keepValid(x / y, texelIndex(texel, u_width), u_n);
#else
#error "pointwise.glsl: define MULTIPLY or DIVIDE"
#endif
}
