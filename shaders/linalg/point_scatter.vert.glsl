// PointMatrix product (Krüger & Westermann §44.3.3): one point per non-zero a_ij, placed on
// the texel of row i in y (element i in texel i/4, channel i%4), carrying a_ij x_j in
// channel i % 4; additive blending sums a row's products. Compiled as GLSL 3.30.
layout(location = 0) in ivec2 a_rowCol;  // i, j
layout(location = 1) in float a_value;   // a_ij

uniform sampler2D u_x;
uniform ivec2 u_targetSize;  // y's texture in texels

flat out vec4 v_product;

void main() {
  int row = a_rowCol.x, col = a_rowCol.y;
  int xWidth = textureSize(u_x, 0).x;
  int xt = col / 4;
  vec4 xs = texelFetch(u_x, ivec2(xt % xWidth, xt / xWidth), 0);
  float xj = xs[col % 4];
  int yt = row / 4;
  vec2 centre = vec2(float(yt % u_targetSize.x), float(yt / u_targetSize.x)) + 0.5;
  gl_Position = vec4(centre / vec2(u_targetSize) * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
  vec4 product = vec4(0.0);
  product[row % 4] = a_value * xj;
  v_product = product;
}
