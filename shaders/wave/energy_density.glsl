// Per-node discrete energy of the wave equation at the half step n - 1/2, between
// p = u^{n-1} and u = u^n; a sum reduction of it gives the total (WaveEquation::energy):
//   e_i = h^2/2 ((u_i - p_i) / dt)^2 + c^2/2 P_i,
//   P_i = u_i (K p)_i                         (explicit leapfrog)
//   P_i = (u_i (K u)_i + p_i (K p)_i) / 2     (IMPLICIT: the scheme averaging n+1 and n-1)
// K = -h^2 Laplacian: the 5-point stencil 4 on the diagonal, -1 to each neighbour, with the
// zero Dirichlet rim. With no damping each scheme conserves its sum exactly (up to
// rounding); the explicit one only while c dt / h <= 1/sqrt(2) keeps it positive.
uniform sampler2D u_u;
uniform sampler2D u_p;
uniform int u_n;          // W H
uniform int u_gridWidth;  // W
uniform float u_kinetic;    // h^2 / (2 dt^2)
uniform float u_potential;  // c^2 / 2

// (K x) at elements e .. e+3; `column` holds their grid columns.
vec4 stencilK(sampler2D x, int e, ivec4 column) {
  vec4 left = mix(vec4(0.0), fetchElements(x, e - 1), greaterThan(column, ivec4(0)));
  vec4 right = mix(vec4(0.0), fetchElements(x, e + 1), lessThan(column, ivec4(u_gridWidth - 1)));
  // Rows below 0 and above H - 1 read as zero: outside the texture or zero padding.
  vec4 down = fetchElements(x, e - u_gridWidth);
  vec4 up = fetchElements(x, e + u_gridWidth);
  return 4.0 * fetchElements(x, e) - left - right - down - up;
}

void kernel(ivec2 texel) {
  int t = texelIndex(texel, textureSize(u_u, 0).x);
  int e = 4 * t;
  ivec4 column = (ivec4(e) + ivec4(0, 1, 2, 3)) % u_gridWidth;
  vec4 u = texelFetch(u_u, texel, 0);
  vec4 p = texelFetch(u_p, texel, 0);
  vec4 v = u - p;
#ifdef IMPLICIT
  vec4 potential = 0.5 * (u * stencilK(u_u, e, column) + p * stencilK(u_p, e, column));
#else
  vec4 potential = u * stencilK(u_p, e, column);
#endif
  o_out0 = keepValid(u_kinetic * v * v + u_potential * potential, t, u_n);
}
