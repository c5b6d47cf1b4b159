// Shared by the projection kernels: face velocities of a fluid node from the layered
// velocity (border in sync) and the pressure operator's links (fluid/operator.glsl). A face
// to a fluid or outlet neighbour (link != 0) carries the average of the two nodes; a face
// to a solid neighbour (link 0) carries the solid's prescribed velocity.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_u;
uniform sampler2D u_v;
uniform sampler2D u_A1;  // south link
uniform sampler2D u_A3;  // west link
uniform sampler2D u_A4;  // centre (0: not a fluid node)
uniform sampler2D u_A5;  // east link
uniform sampler2D u_A7;  // north link

vec4 faceVelocity(vec4 own, vec4 neighbour, vec4 link) {
  return mix(neighbour, 0.5 * (own + neighbour), notEqual(link, vec4(0.0)));
}

// Flux sum D = sum over faces of (outward normal velocity) (face length / h); every face of
// a fluid node is a full face (the domain's edge nodes are never fluid).
vec4 fluxSum(ivec2 t) {
  vec4 u = texelFetch(u_u, t, 0), v = texelFetch(u_v, t, 0);
  vec4 east = faceVelocity(u, texelFetch(u_u, t + ivec2(1, 0), 0), texelFetch(u_A5, t, 0));
  vec4 west = faceVelocity(u, texelFetch(u_u, t - ivec2(1, 0), 0), texelFetch(u_A3, t, 0));
  vec4 north = faceVelocity(v, texelFetch(u_v, t + ivec2(0, 1), 0), texelFetch(u_A7, t, 0));
  vec4 south = faceVelocity(v, texelFetch(u_v, t - ivec2(0, 1), 0), texelFetch(u_A1, t, 0));
  return east - west + north - south;
}

bvec4 fluidOwned(ivec2 t) {
  return bvec4(ivec4(notEqual(texelFetch(u_A4, t, 0), vec4(0.0))) * ivec4(layeredOwned(u_grid, t)));
}
