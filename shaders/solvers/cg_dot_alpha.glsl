// Compute backend: pq = p . q in one dispatch, and in its last invocation alpha = rho / pq
// with the status update (cg_steps.glsl). Outputs: u_image0 = pq, u_image1 = alpha,
// u_image2 = status. Saves the mip levels and the 1x1 pass of the fragment path.
#include "reduce/workgroup.glsl"
#include "reduce/elements.glsl"
#include "solvers/cg_steps.glsl"

uniform sampler2D u_rho;
uniform sampler2D u_status;
uniform int u_iteration;

void epilogue(float pq) {
  vec4 status = texelFetch(u_status, ivec2(0), 0);
  float alpha = cgAlpha(texelFetch(u_rho, ivec2(0), 0).x, pq, status, float(u_iteration));
  imageStore(u_image0, ivec2(0), vec4(pq, 0.0, 0.0, 0.0));
  imageStore(u_image1, ivec2(0), vec4(alpha, 0.0, 0.0, 0.0));
  imageStore(u_image2, ivec2(0), status);
}
