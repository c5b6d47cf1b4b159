// Enhanced block Jacobi: copies a slab texture into its rectangle of packed storage,
// output texel (j, k + u_outputOffset) = slab texel (j, k).
uniform sampler2D u_slab;
uniform int u_outputOffset;

void kernel(ivec2 texel) { o_out0 = texelFetch(u_slab, ivec2(texel.x, texel.y - u_outputOffset), 0); }
