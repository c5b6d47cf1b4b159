// Included last by the generated enhanced block Jacobi slab kernel (src/solvers/EbjKernel.h;
// Bajaj et al. 2004, §4.1.1-4.1.2): the elementary blockwise multiplication of slab s,
//   x_s <- (S x)_s + D_s^-1 (sum of the j/k neighbours of x_s + f_s),
// where (S x)_s is the generated row (the line neighbours, from the other slabs: those
// updated earlier in this sweep already hold their new values, which is what makes the
// block Jacobi "enhanced") and the j/k neighbours are the old values of the same slab (the
// T blocks). Neighbours beyond the grid: Neumann clamps to the edge texel (the paper's
// GL_CLAMP_TO_EDGE), Dirichlet reads 0. With u_residual the same terms give
//   r_s = D_s (S x)_s + neighbours + f_s - D_s x_s = (f - A x)_s.

vec4 ebjNeighbour(ivec2 c, ivec2 size, vec4 centre, bool alongY) {
  bool outside = alongY ? (c.x < 0 || c.x >= size.x) : (c.y < 0 || c.y >= size.y);
  if (!outside) return texelFetch(u_self, c, 0);
#if defined(EBJ_NEUMANN_Y) && defined(EBJ_NEUMANN_Z)
  return centre;
#elif defined(EBJ_NEUMANN_Y)
  return alongY ? centre : vec4(0.0);
#elif defined(EBJ_NEUMANN_Z)
  return alongY ? vec4(0.0) : centre;
#else
  return vec4(0.0);
#endif
}

void kernel(ivec2 texel) {
  ivec2 c = ivec2(texel.x, texel.y - u_outputOffset);
  ivec2 size = textureSize(u_self, 0);
  vec4 x[EBJ_BLOCKS];
  ebjGather(c, x);
  vec4 y[EBJ_BLOCKS];
  ebjRow(x, y);
  vec4 centre = texelFetch(u_self, c, 0);
  vec4 around = ebjNeighbour(c + ivec2(-1, 0), size, centre, true) + ebjNeighbour(c + ivec2(1, 0), size, centre, true);
#if EBJ_DIMENSIONS == 3
  around += ebjNeighbour(c + ivec2(0, -1), size, centre, false) + ebjNeighbour(c + ivec2(0, 1), size, centre, false);
#endif
  vec4 f = texelFetch(u_f, ivec2(c.x, c.y + size.y * EBJ_SLAB), 0);
  if (u_residual != 0) {
    o_out0 = kEbjDiag * (y[EBJ_SLAB] - centre) + around + f;
  } else {
    o_out0 = y[EBJ_SLAB] + kEbjInvDiag * (around + f);
  }
}
