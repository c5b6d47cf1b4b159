// Enhanced block Jacobi (Bajaj et al. 2004, §4.1): packed slab storage (line (j, k)'s slab s
// at texel (j, k + nz s), lane p holding line position permutation[4 s + p]) back to natural
// order: element e = i + nx (j + ny k) of a vector of u_n elements in its own layout, read
// from slot u_position[i] = 4 s + p. Define EBJ_LINE = nx. Padding stays zero.
uniform sampler2D u_packed;
uniform int u_position[EBJ_LINE];  // slot 4 s + p of line position i
uniform int u_ny;
uniform int u_nz;
uniform int u_n;
uniform int u_outputWidth;  // texels per row of the output's layout

float ebjUnpacked(int e) {
  if (e >= u_n) return 0.0;
  int i = e % EBJ_LINE;
  int line = e / EBJ_LINE;
  int q = u_position[i];
  return texelFetch(u_packed, ivec2(line % u_ny, line / u_ny + u_nz * (q / 4)), 0)[q % 4];
}

void kernel(ivec2 texel) {
  int e = 4 * texelIndex(texel, u_outputWidth);
  o_out0 = vec4(ebjUnpacked(e), ebjUnpacked(e + 1), ebjUnpacked(e + 2), ebjUnpacked(e + 3));
}
