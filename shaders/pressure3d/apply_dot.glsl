// y = A x for the pressure operator of a 3D fluid domain (compute backend), fused with the
// dot product y . x and an epilogue that consumes it (CG's w = A u with w . u in one pass).
// Composed with the epilogue's file by stream::composeReductionKernel: u_image0 is y.
uniform sampler2D u_x;
#include "pressure3d/operator.glsl"
vec4 pressureProductAt(ivec2 texel) { return pressureProduct(u_x, gridCursorAt(u_grid, texel)); }
#define PRODUCT pressureProductAt
#include "sparse/product_dot_whole_texture.glsl"
