// The start of a PressureSolver3D solve: b restricted to the cells with an equation (A's
// rows are empty elsewhere, so b there could never be met) and x set to 0 off them.
uniform sampler2D u_diagonal;
uniform sampler2D u_b;
uniform sampler2D u_x;

void kernel(ivec2 texel) {
  bvec4 equation = greaterThan(texelFetch(u_diagonal, texel, 0), vec4(0.0));
  o_out0 = mix(vec4(0.0), texelFetch(u_b, texel, 0), equation);
  o_out1 = mix(vec4(0.0), texelFetch(u_x, texel, 0), equation);
}
