// xs = x as one float per texel: output texel (X, Y) of an R32F texture 4 W wide holds
// element channel X % 4 of x's texel (X / 4, Y). The segment product then gathers x_j with
// 4-byte fetches instead of 16-byte RGBA32F ones (SegmentOptions::scalarGather, off by
// default: the extra pass costs more than it saves on the GPUs measured).
uniform sampler2D u_x;

void kernel(ivec2 texel) {
  o_out0 = vec4(texelFetch(u_x, ivec2(texel.x >> 2, texel.y), 0)[texel.x & 3], 0.0, 0.0, 0.0);
}
