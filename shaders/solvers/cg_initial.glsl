// Packs ||b||^2 and ||r0||^2 into one texel so that CGLS's set-up needs one read-back.
uniform sampler2D u_bb;
uniform sampler2D u_rr;

void kernel(ivec2 texel) {
  o_out0 = vec4(texelFetch(u_bb, ivec2(0), 0).x, texelFetch(u_rr, ivec2(0), 0).x, 0.0, 0.0);
}
