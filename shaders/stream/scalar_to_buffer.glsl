// Copies a Scalar's texel into a storage buffer (binding 0), the compute backend's way of
// starting an asynchronous read-back (stream::ScalarReadback): a glReadPixels into a pack
// buffer is work for the graphics engine, and between compute dispatches the switch to it
// and back stalls the GPU. A raw kernel of one invocation.
layout(local_size_x = 1) in;

uniform sampler2D u_scalar;

layout(std430, binding = 0) writeonly buffer ReadbackTexel {
  vec4 r_texel;
};

void main() {
  r_texel = texelFetch(u_scalar, ivec2(0), 0);
}
