// Packs what a CG convergence check needs into one texel, so that one (possibly
// asynchronous) read-back answers it: (||r||^2, status code, status iteration, status value).
uniform sampler2D u_rr;      // ||r||^2 in .x
uniform sampler2D u_status;  // cg_status.glsl

void kernel(ivec2 texel) {
  vec4 status = texelFetch(u_status, ivec2(0), 0);
  o_out0 = vec4(texelFetch(u_rr, ivec2(0), 0).x, status.xyz);
}
