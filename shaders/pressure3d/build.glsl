// The coefficients of the pressure operator of a 3D fluid domain (linalg/PressureDomain3D.h
// has the equations), for the four cells of a packed texel: the diagonal in o_out0 (A_ii > 0
// on cells with an equation, 0 on solid and walled-in cells and the padding, -1 on air), with FACE_FRACTIONS the couplings with the -x, -y, -z neighbours in
// o_out1..3, with FLOATING_ALL a 1 on every cell with an equation in the last output (the
// fluid forms one closed region: PressureMatrix3D::update).
// Inputs are packed fields on the grid: labels (0 fluid, 1 solid, 2 air), with LEVEL_SET a
// signed distance (< 0 in the liquid) giving the free surface's theta on faces to air (the
// ghost fluid of Gibou et al. 2002), with FACE_FRACTIONS the open fractions of each cell's
// -x, -y and -z faces (a face's fraction is stored with the cell on its + side).
#include "grid3d/grid.glsl"

uniform Grid3 u_grid;
uniform sampler2D u_labels;
uniform int u_outside[6];  // label beyond the -x, +x, -y, +y, -z, +z sides
#ifdef LEVEL_SET
uniform sampler2D u_levelSet;
uniform float u_minTheta;
#endif
#ifdef FACE_FRACTIONS
uniform sampler2D u_openX;
uniform sampler2D u_openY;
uniform sampler2D u_openZ;
#endif

const ivec3 kFaceStep[6] = ivec3[6](ivec3(-1, 0, 0), ivec3(1, 0, 0), ivec3(0, -1, 0), ivec3(0, 1, 0),
                                    ivec3(0, 0, -1), ivec3(0, 0, 1));

bool insideBox(ivec3 c) { return all(greaterThanEqual(c, ivec3(0))) && all(lessThan(c, u_grid.size.xyz)); }

// Cell c (inside the box) of a packed field.
float cellValue(sampler2D f, ivec3 c) {
  int q = c.x / 4;
  return texelFetch(f, gridTexel(u_grid, ivec3(q, c.y, c.z)), 0)[c.x - 4 * q];
}

float labelAt(ivec3 c, int face) { return insideBox(c) ? floor(cellValue(u_labels, c) + 0.5) : float(u_outside[face]); }

#ifdef FACE_FRACTIONS
// The open fraction of face `face` of cell c: stored with the cell on the face's + side; the
// box's + sides are open as their outside label says.
float openFraction(ivec3 c, int face) {
  ivec3 owner = (face % 2 == 1) ? c + kFaceStep[face] : c;
  if (!insideBox(owner)) return 1.0;
  int axis = face / 2;
  if (axis == 0) return cellValue(u_openX, owner);
  if (axis == 1) return cellValue(u_openY, owner);
  return cellValue(u_openZ, owner);
}
#endif

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  vec4 diagonal = vec4(0.0), couplingX = vec4(0.0), couplingY = vec4(0.0), couplingZ = vec4(0.0);
  if (b.z < u_grid.size.z) {
    for (int ch = 0; ch < 4; ++ch) {
      ivec3 c = gridCell(b, ch);
      if (c.x >= u_grid.size.x) continue;
      float own = labelAt(c, 0);
      if (own != 0.0) {
        diagonal[ch] = own == 2.0 ? -1.0 : 0.0;
        continue;
      }
#ifdef LEVEL_SET
      float phi = cellValue(u_levelSet, c);
#endif
      float d = 0.0;
      for (int face = 0; face < 6; ++face) {
        ivec3 n = c + kFaceStep[face];
        float label = labelAt(n, face);
#ifdef FACE_FRACTIONS
        float open = openFraction(c, face);
#else
        float open = 1.0;
#endif
        if (label == 0.0) {
          d += open;
          if (face == 0) couplingX[ch] = open;
          if (face == 2) couplingY[ch] = open;
          if (face == 4) couplingZ[ch] = open;
        } else if (label == 2.0) {
          float theta = 1.0;
#ifdef LEVEL_SET
          if (insideBox(n)) theta = clamp(phi / (phi - cellValue(u_levelSet, n)), u_minTheta, 1.0);
#endif
          d += open / theta;
        }
      }
      diagonal[ch] = d;
    }
  }
  o_out0 = diagonal;
#ifdef FACE_FRACTIONS
  o_out1 = couplingX;
  o_out2 = couplingY;
  o_out3 = couplingZ;
#endif
#ifdef FLOATING_ALL
#ifdef FACE_FRACTIONS
  o_out4 = vec4(greaterThan(diagonal, vec4(0.0)));
#else
  o_out1 = vec4(greaterThan(diagonal, vec4(0.0)));
#endif
#endif
}
