// Right-hand side of the pressure equation A phi = -D (fluid/FluidSolver.h): the flux sum
// of every owned fluid node, zero elsewhere. NODE_DIVERGENCE instead: the central
// divergence of the node velocities, ((u_E - u_W) + (v_N - v_S)) / 2, which the colocated
// grid cannot drive to zero (statistics only). Both in velocity units (divide by h for 1/time).
#include "fluid/projection.glsl"

void kernel(ivec2 t) {
  if (layeredRing(t, textureSize(u_u, 0))) {
    o_out0 = vec4(0.0);
    return;
  }
#ifdef NODE_DIVERGENCE
  vec4 d = 0.5 * (texelFetch(u_u, t + ivec2(1, 0), 0) - texelFetch(u_u, t - ivec2(1, 0), 0) +
                  texelFetch(u_v, t + ivec2(0, 1), 0) - texelFetch(u_v, t - ivec2(0, 1), 0));
#else
  vec4 d = -fluxSum(t);
#endif
  o_out0 = mix(vec4(0.0), d, fluidOwned(t));
}
