// Shared by the node-texture projection kernels (fluid/NodeProjection.h): the pressure
// operator of fluid/operator.glsl and the face velocities of fluid/projection.glsl, read
// straight from the node types (u_boundary: .x type, .yz prescribed velocity) instead of
// layered operator textures. Outside the grid is a wall at rest.
#include "fluid/nodes.glsl"
uniform sampler2D u_boundary;

const ivec2 kEast = ivec2(1, 0);
const ivec2 kWest = ivec2(-1, 0);
const ivec2 kNorth = ivec2(0, 1);
const ivec2 kSouth = ivec2(0, -1);

// 1 where the operator links a fluid node to its neighbour m (m fluid or an outlet), 0 for a
// solid neighbour (Neumann: the face carries the solid's velocity).
float link(ivec2 m) { return nodeType(u_boundary, m) == kSolid ? 0.0 : 1.0; }

// The operator's centre at node n: its number of links if fluid, else 0 (a fixed node).
float centre(ivec2 n) {
  if (nodeType(u_boundary, n) != kFluid) return 0.0;
  return link(n + kEast) + link(n + kWest) + link(n + kNorth) + link(n + kSouth);
}

// phi at a linked neighbour m: its value if fluid, 0 at an outlet (Dirichlet).
float neighbourPhi(sampler2D phi, ivec2 m) { return nodeType(u_boundary, m) == kFluid ? texelFetch(phi, m, 0).x : 0.0; }

// The face between node n (velocity own) and its neighbour m: the average of the two nodes
// where linked, the solid's prescribed velocity otherwise.
vec2 faceVelocity(sampler2D velocity, vec2 own, ivec2 m) {
  if (link(m) != 0.0) return 0.5 * (own + texelFetch(velocity, m, 0).xy);
  ivec2 size = textureSize(u_boundary, 0);
  bool inside = m.x >= 0 && m.y >= 0 && m.x < size.x && m.y < size.y;
  return inside ? texelFetch(u_boundary, m, 0).yz : vec2(0.0);
}
