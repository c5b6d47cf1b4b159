// The 3x3 stencil of A_h stored as nine layered textures A^d (Bolz §4.2, "we store the
// matrix as nine 2D textures"), entry d = (dx, dy) in u_A[(dx + 1) + 3 (dy + 1)]; u_A4 is
// the centre, zero at fixed (Dirichlet) nodes. Every channel reads its neighbours in the
// same channel of the neighbouring texel (the border holds the other parts' nodes).
uniform sampler2D u_A0;
uniform sampler2D u_A1;
uniform sampler2D u_A2;
uniform sampler2D u_A3;
uniform sampler2D u_A4;
uniform sampler2D u_A5;
uniform sampler2D u_A6;
uniform sampler2D u_A7;
uniform sampler2D u_A8;

// Constant-coefficient fast path (LayeredStencil::findConstantStencils): the reference
// stencil, one value per channel (its centre is non-zero in every channel), and with
// CONSTANT_STENCIL the flags of the texels whose nine entries equal it bit for bit. At a
// flagged texel every channel is a free node and the uniforms replace the nine fetches.
uniform vec4 u_S0;
uniform vec4 u_S1;
uniform vec4 u_S2;
uniform vec4 u_S3;
uniform vec4 u_S4;
uniform vec4 u_S5;
uniform vec4 u_S6;
uniform vec4 u_S7;
uniform vec4 u_S8;
#ifdef CONSTANT_STENCIL
uniform sampler2D u_constant;
bool stencilConstant(ivec2 t) { return texelFetch(u_constant, t, 0).r != 0.0; }
#else
bool stencilConstant(ivec2 t) { return false; }
#endif

// Entry sampler (or uniform) A at offset (dx, dy); names are spelled out because GLSL ES
// has no token pasting.
#define STENCIL_TERM(A, dx, dy) (texelFetch(A, t, 0) * texelFetch(x, t + ivec2(dx, dy), 0))
#define CONSTANT_TERM(S, dx, dy) (S * texelFetch(x, t + ivec2(dx, dy), 0))

// Offset of stencil entry k (0 .. 8): (k % 3 - 1, k / 3 - 1).
ivec2 stencilOffset(int k) { return ivec2(k - 3 * (k / 3) - 1, k / 3 - 1); }

// x at the nine neighbours of t, in entry order (fetched before any branch on the flags,
// so that flagged and unflagged texels wait for one round of fetches).
#define STENCIL_NEIGHBOURS(X, x, t) \
  vec4 X[9];                        \
  for (int k_ = 0; k_ < 9; ++k_) X[k_] = texelFetch(x, (t) + stencilOffset(k_), 0)

// sum over k of A^k[t] X[k], and the same with the reference stencil (the same operations
// in the same order, so the same result where stencilConstant(t)).
vec4 stencilSum(vec4 X[9], ivec2 t) {
  return texelFetch(u_A0, t, 0) * X[0] + texelFetch(u_A1, t, 0) * X[1] + texelFetch(u_A2, t, 0) * X[2] +
         texelFetch(u_A3, t, 0) * X[3] + texelFetch(u_A4, t, 0) * X[4] + texelFetch(u_A5, t, 0) * X[5] +
         texelFetch(u_A6, t, 0) * X[6] + texelFetch(u_A7, t, 0) * X[7] + texelFetch(u_A8, t, 0) * X[8];
}
vec4 stencilSumConstant(vec4 X[9]) {
  return u_S0 * X[0] + u_S1 * X[1] + u_S2 * X[2] + u_S3 * X[3] + u_S4 * X[4] + u_S5 * X[5] + u_S6 * X[6] +
         u_S7 * X[7] + u_S8 * X[8];
}

// (A x)[t] for the four nodes of texel t (t must not be on the outer ring).
vec4 stencilApply(sampler2D x, ivec2 t) {
  return STENCIL_TERM(u_A0, -1, -1) + STENCIL_TERM(u_A1, 0, -1) + STENCIL_TERM(u_A2, 1, -1) +
         STENCIL_TERM(u_A3, -1, 0) + STENCIL_TERM(u_A4, 0, 0) + STENCIL_TERM(u_A5, 1, 0) +
         STENCIL_TERM(u_A6, -1, 1) + STENCIL_TERM(u_A7, 0, 1) + STENCIL_TERM(u_A8, 1, 1);
}

// The same with the reference stencil.
vec4 stencilApplyConstant(sampler2D x, ivec2 t) {
  return CONSTANT_TERM(u_S0, -1, -1) + CONSTANT_TERM(u_S1, 0, -1) + CONSTANT_TERM(u_S2, 1, -1) +
         CONSTANT_TERM(u_S3, -1, 0) + CONSTANT_TERM(u_S4, 0, 0) + CONSTANT_TERM(u_S5, 1, 0) +
         CONSTANT_TERM(u_S6, -1, 1) + CONSTANT_TERM(u_S7, 0, 1) + CONSTANT_TERM(u_S8, 1, 1);
}
