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

#define STENCIL_TERM(k, dx, dy) (texelFetch(u_A##k, t, 0) * texelFetch(x, t + ivec2(dx, dy), 0))

// (A x)[t] for the four nodes of texel t (t must not be on the outer ring).
vec4 stencilApply(sampler2D x, ivec2 t) {
  return STENCIL_TERM(0, -1, -1) + STENCIL_TERM(1, 0, -1) + STENCIL_TERM(2, 1, -1) +
         STENCIL_TERM(3, -1, 0) + STENCIL_TERM(4, 0, 0) + STENCIL_TERM(5, 1, 0) +
         STENCIL_TERM(6, -1, 1) + STENCIL_TERM(7, 0, 1) + STENCIL_TERM(8, 1, 1);
}

// Off-diagonal part: (A x)[t] - A^0[t] x[t].
vec4 stencilOffDiagonal(sampler2D x, ivec2 t) {
  return STENCIL_TERM(0, -1, -1) + STENCIL_TERM(1, 0, -1) + STENCIL_TERM(2, 1, -1) +
         STENCIL_TERM(3, -1, 0) + STENCIL_TERM(5, 1, 0) +
         STENCIL_TERM(6, -1, 1) + STENCIL_TERM(7, 0, 1) + STENCIL_TERM(8, 1, 1);
}
