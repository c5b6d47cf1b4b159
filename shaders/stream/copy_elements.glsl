// Copies a vector's texels into a shader-storage buffer in element order (stream::ElementCopy:
// texel t = y * W + x holds elements 4t..4t+3). A raw kernel of 16 x 16 workgroups over
// the texture.
layout(local_size_x = 16, local_size_y = 16) in;

uniform sampler2D u_x;
uniform ivec2 u_size;  // the texture's size in texels

layout(std430, binding = 0) writeonly buffer ElementTexels {
  vec4 e_texels[];
};

void main() {
  ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
  if (texel.x < u_size.x && texel.y < u_size.y) e_texels[texel.y * u_size.x + texel.x] = texelFetch(u_x, texel, 0);
}
