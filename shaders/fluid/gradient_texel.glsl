// The projection of the layered node velocities, per texel (fluid/gradient_subtract.glsl
// says what it computes): the fragment and compute kernel gradient_subtract.glsl and the
// compute backend's gradient_subtract_unlayer.glsl share it.
#ifndef TEXSTREAM_FLUID_GRADIENT_TEXEL_GLSL
#define TEXSTREAM_FLUID_GRADIENT_TEXEL_GLSL
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

// u and v of layered texel t after the projection: owned channels from projected(), the
// border zero or (BORDER_IN_KERNEL) each duplicate its owner's value.
void projectedTexel(ivec2 t, out vec4 u, out vec4 v) {
  bvec4 owned = layeredOwned(u_grid, t);
  u = vec4(0.0);
  v = vec4(0.0);
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
}

#endif
