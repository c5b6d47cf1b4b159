// 1 on the cells of floating component u_component (linalg/PressureMatrix3D.h numbers them
// 1, 2, ...), 0 elsewhere.
uniform sampler2D u_floating;
uniform float u_component;

void kernel(ivec2 texel) { o_out0 = vec4(equal(texelFetch(u_floating, texel, 0), vec4(u_component))); }
