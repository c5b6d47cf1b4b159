// CG's set-up on the compute backend in one dispatch after the product A x (reduce/
// workgroup.glsl with REDUCE_VEC4), per texel:
//   r = b - A x, written over A x (in place: every texel is read and written by one
//   invocation only), its padding zeroed (as linalg::linearCombination's), so r may be
//   a temporary whose padding was not cleared;  JACOBI: u = r .* diag(A)^-1 (u = M^-1 r)
// summed: ||b||^2, ||r||^2 and r.u (u = r without a preconditioner). The last invocation
// makes the set-up check (solvers/cg_set_up_decision.glsl) and, with START_SUMS, stores r.u
// and ||r||^2 where the algorithm's start reads them (Chronopoulos-Gear's gamma and r.r),
// which saves the reductions the set-up and that start otherwise take one pass each.
// Outputs: u_image0 = r, [JACOBI: u_image1 = u], then the check and status texels,
// [START_SUMS: r.u, r.r].
#define REDUCE_VEC4 1
#include "reduce/workgroup.glsl"
#include "solvers/cg_set_up_decision.glsl"

uniform sampler2D u_b;
uniform sampler2D u_ax;
uniform int u_n;      // elements
uniform int u_width;  // the layout's width in texels
#ifdef JACOBI
uniform sampler2D u_inverseDiagonal;
#define FIRST_SCALAR_IMAGE 2
#else
#define FIRST_SCALAR_IMAGE 1
#endif

#if FIRST_SCALAR_IMAGE == 2
#define CHECK_IMAGE u_image2
#define STATUS_IMAGE u_image3
#define RU_IMAGE u_image4
#define RR_IMAGE u_image5
#else
#define CHECK_IMAGE u_image1
#define STATUS_IMAGE u_image2
#define RU_IMAGE u_image3
#define RR_IMAGE u_image4
#endif

vec4 element(ivec2 texel) {
  vec4 b = texelFetch(u_b, texel, 0);
  vec4 r = keepValid(b - texelFetch(u_ax, texel, 0), texelIndex(texel, u_width), u_n);
  imageStore(u_image0, texel, r);
#ifdef JACOBI
  vec4 u = r * texelFetch(u_inverseDiagonal, texel, 0);
  imageStore(u_image1, texel, u);
#else
  vec4 u = r;
#endif
  return vec4(dot(b, b), dot(r, r), dot(r, u), 0.0);
}

void epilogue4(vec4 sums) {
  vec4 check, status;
  cgSetUpDecision(sums.x, sums.y, check, status);
  imageStore(CHECK_IMAGE, ivec2(0), check);
  imageStore(STATUS_IMAGE, ivec2(0), status);
#ifdef START_SUMS
  imageStore(RU_IMAGE, ivec2(0), vec4(sums.z, 0.0, 0.0, 0.0));
  imageStore(RR_IMAGE, ivec2(0), vec4(sums.y, 0.0, 0.0, 0.0));
#endif
}
