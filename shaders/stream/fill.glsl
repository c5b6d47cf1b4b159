// o_i = a for i < n; the padding stays zero (it is the identity of sum reductions).
uniform Coefficient u_a;
uniform int u_n;
uniform int u_width;

void kernel(ivec2 texel) {
  o_out0 = keepValid(vec4(COEFFICIENT(u_a)), texelIndex(texel, u_width), u_n);
}
