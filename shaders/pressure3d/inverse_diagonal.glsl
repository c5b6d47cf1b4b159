// 1 / A_ii on the cells with an equation, 0 elsewhere: the Jacobi preconditioner of the
// pressure operator of a 3D fluid domain (its empty rows take no correction).
uniform sampler2D u_diagonal;

void kernel(ivec2 texel) {
  vec4 d = texelFetch(u_diagonal, texel, 0);
  o_out0 = mix(vec4(0.0), vec4(1.0) / d, greaterThan(d, vec4(0.0)));
}
