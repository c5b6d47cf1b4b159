// res = r - A z for the pressure operator of a 3D fluid domain (pressure3d/operator.glsl),
// 0 on cells without an equation: the residual PressureMultigrid3D restricts.
#include "pressure3d/operator.glsl"

uniform sampler2D u_r;
uniform sampler2D u_z;

void kernel(ivec2 texel) {
  o_out0 = texelFetch(u_r, texel, 0) - pressureProduct(u_z, gridBlock(u_grid, texel));
}
