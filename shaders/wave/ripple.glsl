// Drops a ripple (Krüger & Westermann §44.4 demo): adds the Gaussian bump
//   a exp(-|p - center|^2 / radius^2)
// to both u^n and u^{n-1}, so that it starts at rest. Grid node (i, j) of a W x H grid sits
// at ((i + 1) h, (j + 1) h) and is element j W + i of the vectors (zero Dirichlet rim at
// i = -1, W and j = -1, H). Outputs: o_out0 = u^n + bump, o_out1 = u^{n-1} + bump.
uniform sampler2D u_current;
uniform sampler2D u_previous;
uniform int u_n;          // W H
uniform int u_gridWidth;  // W
uniform vec2 u_center;
uniform float u_spacing;  // h
uniform float u_invRadius2;
uniform float u_amplitude;

void kernel(ivec2 texel) {
  int t = texelIndex(texel, textureSize(u_current, 0).x);
  ivec4 e = ivec4(4 * t) + ivec4(0, 1, 2, 3);
  vec4 px = vec4(e % u_gridWidth + 1) * u_spacing - u_center.x;
  vec4 py = vec4(e / u_gridWidth + 1) * u_spacing - u_center.y;
  vec4 bump = u_amplitude * exp(-(px * px + py * py) * u_invRadius2);
  o_out0 = keepValid(texelFetch(u_current, texel, 0) + bump, t, u_n);
  o_out1 = keepValid(texelFetch(u_previous, texel, 0) + bump, t, u_n);
}
