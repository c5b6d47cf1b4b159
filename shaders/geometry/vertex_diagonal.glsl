// The diagonal of A (x) I as a vertex vector: (a_vv, a_vv, a_vv, 1), or its inverse
// (INVERSE); 1 where a_vv = 0 (layout padding), so Jacobi's z = r / d stays finite there
// (r is 0 in those places). Texels past the vertex layout's size stay 0.
#include "sparse/element.glsl"

uniform sampler2D u_diagonal;  // internal layout
uniform int u_vertexShift;
uniform int u_internalShift;
uniform int u_n;  // elements of the vertex layout

void kernel(ivec2 texel) {
  int v = (texel.y << u_vertexShift) + texel.x;
  float a = fetchElementShift(u_diagonal, v, u_internalShift);
  if (a == 0.0) a = 1.0;
#if INVERSE
  a = 1.0 / a;
#endif
  o_out0 = keepValid(vec4(a, a, a, 1.0), v, u_n);
}
