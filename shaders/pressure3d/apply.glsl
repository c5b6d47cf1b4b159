// y = A x for the pressure operator of a 3D fluid domain (pressure3d/operator.glsl).
uniform sampler2D u_x;
#include "pressure3d/operator.glsl"

void kernel(ivec2 texel) { o_out0 = pressureProduct(u_x, gridCursorAt(u_grid, texel)); }
