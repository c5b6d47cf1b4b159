// diag(A) of a layered stencil: the centre entries, 1 at fixed nodes (identity rows).
uniform sampler2D u_centre;

void kernel(ivec2 t) {
  vec4 c = texelFetch(u_centre, t, 0);
  o_out0 = mix(vec4(1.0), c, notEqual(c, vec4(0.0)));
}
