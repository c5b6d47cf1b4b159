// Copies every texel of u_source: the starting contents of an in-place pass's target on
// contexts that cannot render into a texture they sample (stream/Pass.cpp).
uniform sampler2D u_source;

void kernel(ivec2 texel) { o_out0 = texelFetch(u_source, texel, 0); }
