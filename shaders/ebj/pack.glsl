// Enhanced block Jacobi (Bajaj et al. 2004, §4.1.2, Figure 12): gathers slab s of a grid
// vector in natural order (element i + nx (j + ny k), any layout) into slab storage:
// output texel (j, k + u_outputOffset) = elements u_lines (the line positions of the slab's
// four lanes) of grid line (j, k).
uniform sampler2D u_natural;
uniform ivec4 u_lines;
uniform int u_nx;
uniform int u_ny;
uniform int u_outputOffset;

float ebjElement(int e) {
  int w = textureSize(u_natural, 0).x;
  int t = e / 4;
  return texelFetch(u_natural, ivec2(t % w, t / w), 0)[e % 4];
}

void kernel(ivec2 texel) {
  int base = u_nx * (texel.x + u_ny * (texel.y - u_outputOffset));
  o_out0 = vec4(ebjElement(base + u_lines.x), ebjElement(base + u_lines.y), ebjElement(base + u_lines.z),
                ebjElement(base + u_lines.w));
}
