// Projection of the node velocities: every face to a fluid or outlet neighbour is corrected
// by the gradient phi_nb - phi (faces to solids keep the solid's velocity), and a node takes
// the average of its two faces' corrections per axis. o_out0 = u, o_out1 = v at owned
// fluid nodes, the old values at other owned nodes; in the border zero (a copy follows),
// or with BORDER_IN_KERNEL each duplicate the value computed at its owner's texel and
// channel (multigrid/border_kernel.glsl's rule for two outputs): bit for bit the copy.
#include "fluid/projection.glsl"
uniform sampler2D u_phi;

// u and v after the projection at the channels of interior texel t that own their node.
void projected(ivec2 t, out vec4 uOut, out vec4 vOut) {
  vec4 phi = texelFetch(u_phi, t, 0);
  vec4 gE = mix(vec4(0.0), texelFetch(u_phi, t + ivec2(1, 0), 0) - phi, notEqual(texelFetch(u_A5, t, 0), vec4(0.0)));
  vec4 gW = mix(vec4(0.0), phi - texelFetch(u_phi, t - ivec2(1, 0), 0), notEqual(texelFetch(u_A3, t, 0), vec4(0.0)));
  vec4 gN = mix(vec4(0.0), texelFetch(u_phi, t + ivec2(0, 1), 0) - phi, notEqual(texelFetch(u_A7, t, 0), vec4(0.0)));
  vec4 gS = mix(vec4(0.0), phi - texelFetch(u_phi, t - ivec2(0, 1), 0), notEqual(texelFetch(u_A1, t, 0), vec4(0.0)));
  vec4 u = texelFetch(u_u, t, 0), v = texelFetch(u_v, t, 0);
  bvec4 fluid = fluidOwned(t);
  uOut = mix(u, u - 0.5 * (gE + gW), fluid);
  vOut = mix(v, v - 0.5 * (gN + gS), fluid);
}

void kernel(ivec2 t) {
  bvec4 owned = layeredOwned(u_grid, t);
  vec4 u = vec4(0.0), v = vec4(0.0);
  if (!layeredRing(t, textureSize(u_u, 0))) projected(t, u, v);
  u = mix(vec4(0.0), u, owned);
  v = mix(vec4(0.0), v, owned);
#ifdef BORDER_IN_KERNEL
  bvec4 halo = layeredHalo(u_grid, t);
  if (any(notEqual(halo, owned))) {
    ivec4 i = layeredNodeX(u_grid, t.x), j = layeredNodeY(u_grid, t.y);
    for (int c = 0; c < 4; ++c) {
      if (halo[c] && !owned[c]) {
        ivec3 s = layeredSlot(u_grid, ivec2(i[c], j[c]));
        vec4 uOwner, vOwner;
        projected(s.xy, uOwner, vOwner);
        u[c] = uOwner[s.z];
        v[c] = vOwner[s.z];
      }
    }
  }
#endif
  o_out0 = u;
  o_out1 = v;
}
