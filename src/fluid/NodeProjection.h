#pragma once
// texstream::fluid node projection: FluidSolver's pressure projection (FluidSolver.h, step 3)
// on node textures (stream::GridField, texel (i, j) = node (i, j)) with a fixed number of
// weighted Jacobi sweeps, as WebGL-Fluid-Simulation projects on devices that render half
// floats only. Every pass reads node types from the boundary field (.x type, .yz prescribed
// velocity; fluid/Scene.h) and writes one node texture, in the outputs' own format (RGBA16F
// in the half-float mode): no layered fields, operator textures or reductions.
//
// The discretisation is the layered path's (shaders/fluid/operator.glsl, projection.glsl,
// gradient_subtract.glsl): at a fluid node the operator links every fluid or outlet
// neighbour (-1) and no solid one, centre = number of links; the face to a linked neighbour
// carries the average of the two nodes, the face to a solid its prescribed velocity; outlets
// hold phi = 0. Units as there: velocity in domain units per time, phi = p dt / h.
//
//   nodeDivergence(velocity, boundary, -1.0f, rhs);             // b = -D
//   for (int k = 0; k < sweeps; ++k) jacobiPressureSweep(phi, rhs, boundary, 0.8f, phi);
//   subtractNodeGradient(velocity, phi, boundary, projected);
#include <texstream/stream/GridField.h>

namespace texstream::fluid {

/// out.x = scale * D at fluid nodes with links, D = u_E - u_W + v_N - v_S the flux sum of
/// the faces of `velocity` (.xy); 0 elsewhere. scale -1: the pressure right-hand side;
/// 1 / h: the divergence in 1 / time. All fields of one grid size.
void nodeDivergence(const stream::GridField& velocity, const stream::GridField& boundary, float scale,
                    stream::GridField& out);

/// out.x = (1 - omega) phi + omega (sum over links of phi_nb + b) / centre at fluid nodes
/// with links (outlet neighbours phi_nb = 0), 0 elsewhere: one weighted Jacobi sweep on
/// A phi = b (phi and b in .x). `out` may be `phi` (the pass writes a pooled texture that
/// then takes its place, stream/Pass.h).
void jacobiPressureSweep(const stream::GridField& phi, const stream::GridField& rhs, const stream::GridField& boundary,
                         float omega, stream::GridField& out);

/// out.xy = velocity - the average of the two face gradients of phi per axis, at fluid nodes
/// with links (faces to solids uncorrected); `velocity` elsewhere.
void subtractNodeGradient(const stream::GridField& velocity, const stream::GridField& phi,
                          const stream::GridField& boundary, stream::GridField& out);

}  // namespace texstream::fluid
