// Compute backend: rho' = r . z in one dispatch, and in its last invocation
// beta = rho' / rho. Outputs: u_image0 = rho', u_image1 = beta.
#include "reduce/workgroup.glsl"
#include "reduce/elements.glsl"
#include "solvers/cg_steps.glsl"

uniform sampler2D u_rho;

void epilogue(float rhoNew) {
  imageStore(u_image0, ivec2(0), vec4(rhoNew, 0.0, 0.0, 0.0));
  imageStore(u_image1, ivec2(0), vec4(cgBeta(rhoNew, texelFetch(u_rho, ivec2(0), 0).x), 0.0, 0.0, 0.0));
}
