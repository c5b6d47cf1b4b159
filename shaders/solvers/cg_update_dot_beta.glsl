// Compute backend: the CG update (cg_update_texel.glsl) fused with the next dot product
// rho' = r'.z' and beta = rho' / rho, in one dispatch (reduce/workgroup.glsl): each
// invocation updates its texels and adds r'.z' to the workgroup's sum; the last group
// computes beta. Saves a pass and a second read of r and z per CG iteration.
// Outputs: u_image0 = x', u_image1 = r', [JACOBI: u_image2 = z'], then rho' and beta.
#include "reduce/workgroup.glsl"
#include "solvers/cg_update_texel.glsl"
#include "solvers/cg_steps.glsl"

uniform sampler2D u_rho;

#ifdef JACOBI
#define RHO_NEW_IMAGE u_image3
#define BETA_IMAGE u_image4
#else
#define RHO_NEW_IMAGE u_image2
#define BETA_IMAGE u_image3
#endif

vec4 element(ivec2 texel) {
  vec4 x, r, z;
  cgUpdateTexel(texel, x, r, z);
  imageStore(u_image0, texel, x);
  imageStore(u_image1, texel, r);
#ifdef JACOBI
  imageStore(u_image2, texel, z);
#endif
  return r * z;
}

void epilogue(float rhoNew) {
  imageStore(RHO_NEW_IMAGE, ivec2(0), vec4(rhoNew, 0.0, 0.0, 0.0));
  imageStore(BETA_IMAGE, ivec2(0), vec4(cgBeta(rhoNew, texelFetch(u_rho, ivec2(0), 0).x), 0.0, 0.0, 0.0));
}
