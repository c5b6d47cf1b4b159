// The pressure projection's velocity update on the MAC faces (fluid3d/mac.glsl), from the
// solution q of A q = b (linalg/PressureMatrix3D.h, h = 1 units; p = rho h q / dt). The
// cells on either side of a face are fluid (an equation: u_diagonal > 0), air (-1) or solid
// (0: solid, or fluid walled in); beyond the box they are what u_outside says (1 solid,
// 2 air). A face between fluid cells m (its - side) and p loses q_p - q_m; a face between
// a fluid cell f and air a the ghost-fluid gradient (Gibou et al. 2002): the air side holds
// q_f (1 - 1 / theta), theta = phi_f / (phi_f - phi_a) clamped to [u_minTheta, 1] from the
// packed level set (LEVEL_SET; else 1) exactly as pressure3d/build.glsl computes it, so the
// face loses -q_f / theta (air on its + side) or q_f / theta (air on its - side). Faces
// beside a solid and faces between air cells keep their velocity. The sum of the updated
// outward velocities of a fluid cell is then -(b - A q)_i: the divergence left is the
// solve's residual.
// EXTRAPOLATE: .w codes each component's state for fluid3d/extrapolate.glsl, 4^axis times
// 0 (between air cells: to extrapolate), 1 (projected: known) or 2 (beside a solid, or no
// such face: fixed); otherwise .w is 0.
#include "fluid3d/mac.glsl"

uniform Grid3 u_packed;
uniform sampler2D u_velocity;
uniform sampler2D u_q;
uniform sampler2D u_diagonal;
uniform int u_outside[6];
#ifdef LEVEL_SET
uniform sampler2D u_levelSet;
uniform float u_minTheta;
#endif

const int kFluid = 0, kSolid = 1, kAir = 2;

int kindOf(ivec3 c, int side) {
  if (!cellInside(c)) return u_outside[side];
  float d = gridCellValue(u_diagonal, u_packed, c);
  return d > 0.0 ? kFluid : (d < 0.0 ? kAir : kSolid);
}

// q_f / theta for fluid cell f beside air cell a.
float surfaceJump(ivec3 f, ivec3 a) {
  float q = gridCellValue(u_q, u_packed, f);
#ifdef LEVEL_SET
  if (cellInside(a)) {
    float phi = gridCellValue(u_levelSet, u_packed, f);
    float theta = clamp(phi / (phi - gridCellValue(u_levelSet, u_packed, a)), u_minTheta, 1.0);
    return q / theta;
  }
#endif
  return q;
}

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_faces, texel);
  vec4 out0 = vec4(0.0);
  if (b.z < u_faces.size.z) {
    vec4 velocity = texelFetch(u_velocity, texel, 0);
    float code = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
      float state = 2.0;
      if (faceExists(b, axis)) {
        ivec3 minus = b - unitStep(axis);
        int km = kindOf(minus, 2 * axis), kp = kindOf(b, 2 * axis + 1);
        float u = velocity[axis];
        if (km == kSolid || kp == kSolid) {
          state = 2.0;
        } else if (km == kAir && kp == kAir) {
          state = 0.0;
        } else {
          if (km == kFluid && kp == kFluid) {
            u -= gridCellValue(u_q, u_packed, b) - gridCellValue(u_q, u_packed, minus);
          } else if (kp == kAir) {
            u += surfaceJump(minus, b);
          } else {
            u -= surfaceJump(b, minus);
          }
          state = 1.0;
        }
        out0[axis] = u;
      }
      code += state * (axis == 0 ? 1.0 : (axis == 1 ? 4.0 : 16.0));
    }
#ifdef EXTRAPOLATE
    out0.w = code;
#endif
  }
  o_out0 = out0;
}
