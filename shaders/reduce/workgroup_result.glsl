// A one-dispatch reduction whose result goes to a Scalar (u_image0's .x).
#include "reduce/workgroup.glsl"
#include "reduce/elements.glsl"

void epilogue(float value) { imageStore(u_image0, ivec2(0), vec4(value, 0.0, 0.0, 0.0)); }
