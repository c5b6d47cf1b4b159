// One layer of the velocity's extrapolation into the air (Enright, Marschner & Fedkiw
// 2002; Bridson 2015, §4.4): a face whose state (.w, fluid3d/subtract_gradient.glsl) is 0
// takes the mean of its known (state 1) neighbours among the six faces of its component
// around it, and becomes known. Every face reads the states before the pass (Jacobi order:
// no direction comes first). LAST: faces still unknown get 0, and .w is 0.
#include "fluid3d/mac.glsl"

uniform sampler2D u_velocity;

int stateOf(float code, int axis) { return (int(code + 0.5) >> (2 * axis)) & 3; }

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_faces, texel);
  vec4 out0 = vec4(0.0);
  if (b.z < u_faces.size.z) {
    vec4 here = texelFetch(u_velocity, texel, 0);
    vec4 sum = vec4(0.0), count = vec4(0.0);
    for (int d = 0; d < 6; ++d) {
      ivec3 n = b + (d % 2 == 0 ? -1 : 1) * unitStep(d / 2);
      if (!gridInside(u_faces, n)) continue;
      vec4 v = texelFetch(u_velocity, gridTexel(u_faces, n), 0);
      for (int axis = 0; axis < 3; ++axis) {
        if (stateOf(v.w, axis) == 1) {
          sum[axis] += v[axis];
          count[axis] += 1.0;
        }
      }
    }
    float code = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
      int state = stateOf(here.w, axis);
      float u = here[axis];
      if (state == 0 && count[axis] > 0.0) {
        u = sum[axis] / count[axis];
        state = 1;
      }
#ifdef LAST
      if (state == 0) u = 0.0;
#endif
      out0[axis] = u;
      code += float(state) * (axis == 0 ? 1.0 : (axis == 1 ? 4.0 : 16.0));
    }
#ifndef LAST
    out0.w = code;
#endif
  }
  o_out0 = out0;
}
