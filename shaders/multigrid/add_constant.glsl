// x += a at every free node, border duplicates included (so the border stays in sync):
// removes the mean of singular (pure Neumann) problems, a = -sum / count.
// ZERO_FREE: x = 0 at free nodes instead.
uniform sampler2D u_x;
uniform sampler2D u_centre;
uniform Coefficient u_a;

void kernel(ivec2 t) {
  vec4 x = texelFetch(u_x, t, 0);
  bvec4 free = notEqual(texelFetch(u_centre, t, 0), vec4(0.0));
#ifdef ZERO_FREE
  o_out0 = mix(x, vec4(0.0), free);
#else
  o_out0 = mix(x, x + vec4(COEFFICIENT(u_a)), free);
#endif
}
