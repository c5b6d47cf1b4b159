// Projection of the node velocities: every face to a fluid or outlet neighbour is corrected
// by the gradient phi_nb - phi (faces to solids keep the solid's velocity), and a node takes
// the average of its two faces' corrections per axis. o_out0 = u, o_out1 = v at owned
// fluid nodes, the old values at other owned nodes, zero in the border (a copy follows).
#include "fluid/projection.glsl"
uniform sampler2D u_phi;

void kernel(ivec2 t) {
  if (layeredRing(t, textureSize(u_u, 0))) {
    o_out0 = vec4(0.0);
    o_out1 = vec4(0.0);
    return;
  }
  vec4 phi = texelFetch(u_phi, t, 0);
  vec4 open = vec4(1.0);
  vec4 gE = mix(vec4(0.0), texelFetch(u_phi, t + ivec2(1, 0), 0) - phi, notEqual(texelFetch(u_A5, t, 0), vec4(0.0)));
  vec4 gW = mix(vec4(0.0), phi - texelFetch(u_phi, t - ivec2(1, 0), 0), notEqual(texelFetch(u_A3, t, 0), vec4(0.0)));
  vec4 gN = mix(vec4(0.0), texelFetch(u_phi, t + ivec2(0, 1), 0) - phi, notEqual(texelFetch(u_A7, t, 0), vec4(0.0)));
  vec4 gS = mix(vec4(0.0), phi - texelFetch(u_phi, t - ivec2(0, 1), 0), notEqual(texelFetch(u_A1, t, 0), vec4(0.0)));
  vec4 u = texelFetch(u_u, t, 0), v = texelFetch(u_v, t, 0);
  bvec4 fluid = fluidOwned(t), owned = layeredOwned(u_grid, t);
  o_out0 = mix(vec4(0.0), mix(u, u - 0.5 * (gE + gW), fluid), owned);
  o_out1 = mix(vec4(0.0), mix(v, v - 0.5 * (gN + gS), fluid), owned);
}
