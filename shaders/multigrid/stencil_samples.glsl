// Gathers the nine entries of a layered stencil at 16 sample texels into one row for a
// single read-back (LayeredStencil::findConstantStencils): output texel x holds entry
// x % 9 of sample x / 9, the sample at texel (u_samples[2 k], u_samples[2 k + 1]).
#include "multigrid/stencil.glsl"
uniform int u_samples[32];

void kernel(ivec2 t) {
  int k = t.x / 9, e = t.x - 9 * k;
  ivec2 s = ivec2(u_samples[2 * k], u_samples[2 * k + 1]);
  vec4 v;
  if (e == 0) v = texelFetch(u_A0, s, 0);
  else if (e == 1) v = texelFetch(u_A1, s, 0);
  else if (e == 2) v = texelFetch(u_A2, s, 0);
  else if (e == 3) v = texelFetch(u_A3, s, 0);
  else if (e == 4) v = texelFetch(u_A4, s, 0);
  else if (e == 5) v = texelFetch(u_A5, s, 0);
  else if (e == 6) v = texelFetch(u_A6, s, 0);
  else if (e == 7) v = texelFetch(u_A7, s, 0);
  else v = texelFetch(u_A8, s, 0);
  o_out0 = v;
}
