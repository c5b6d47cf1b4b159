// The pressure projection's right-hand side on the packed grid u_packed (four cells a
// texel, linalg/PressureMatrix3D.h): b_i = -(the sum over cell i's six faces of the outward
// face velocity), in h = 1 units, on cells with an equation (u_diagonal > 0), 0 elsewhere.
// With STATISTICS also 1 on those cells in o_out1 (their count, by a sum).
#include "fluid3d/mac.glsl"

uniform Grid3 u_packed;
uniform sampler2D u_velocity;
uniform sampler2D u_diagonal;

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_packed, texel);
  vec4 rhs = vec4(0.0);
  vec4 equation = vec4(0.0);
  if (b.z < u_packed.size.z) {
    equation = vec4(greaterThan(texelFetch(u_diagonal, texel, 0), vec4(0.0)));
    for (int ch = 0; ch < 4; ++ch) {
      ivec3 c = gridCell(b, ch);
      if (c.x >= u_cells.size.x) continue;
      vec3 low = texelFetch(u_velocity, gridTexel(u_faces, c), 0).xyz;
      float outward = texelFetch(u_velocity, gridTexel(u_faces, c + ivec3(1, 0, 0)), 0).x - low.x +
                      texelFetch(u_velocity, gridTexel(u_faces, c + ivec3(0, 1, 0)), 0).y - low.y +
                      texelFetch(u_velocity, gridTexel(u_faces, c + ivec3(0, 0, 1)), 0).z - low.z;
      rhs[ch] = -outward;
    }
  }
  o_out0 = mix(vec4(0.0), rhs, greaterThan(equation, vec4(0.0)));
#ifdef STATISTICS
  o_out1 = equation;
#endif
}
