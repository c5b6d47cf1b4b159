// Body forces at the cell centres (cells field: .xyz in domain units per time^2, .w 0), for
// the velocity's advection pass to add on the faces (fluid3d/advect_velocity.glsl):
//  - BUOYANCY: (u_buoyancy T - u_densityWeight rho) along +z from the temperature (.y) and
//    density (.x) of u_scalars (Fedkiw, Stam & Jensen 2001, eq. 8);
//  - VORTICITY: confinement u_vorticity h (N x omega), N = grad|omega| / |grad|omega||, from
//    u_curl (fluid3d/curl.glsl: omega in .xyz, |omega| in .w), the nearest cell standing in
//    for neighbours beyond the box (Fedkiw et al. 2001, eq. 9-11).
#include "fluid3d/mac.glsl"

#ifdef BUOYANCY
uniform sampler2D u_scalars;
uniform float u_buoyancy;
uniform float u_densityWeight;
#endif
#ifdef VORTICITY
uniform sampler2D u_curl;
uniform float u_vorticity;
uniform float u_h;
#endif

void kernel(ivec2 texel) {
  ivec3 c = gridBlock(u_cells, texel);
  vec3 f = vec3(0.0);
  if (c.z < u_cells.size.z) {
#ifdef BUOYANCY
    vec4 s = texelFetch(u_scalars, texel, 0);
    f.z += u_buoyancy * s.y - u_densityWeight * s.x;
#endif
#ifdef VORTICITY
    vec4 here = texelFetch(u_curl, texel, 0);
    vec3 gradient = vec3(cellValue(u_curl, c + ivec3(1, 0, 0)).w - cellValue(u_curl, c - ivec3(1, 0, 0)).w,
                         cellValue(u_curl, c + ivec3(0, 1, 0)).w - cellValue(u_curl, c - ivec3(0, 1, 0)).w,
                         cellValue(u_curl, c + ivec3(0, 0, 1)).w - cellValue(u_curl, c - ivec3(0, 0, 1)).w);
    float length2 = dot(gradient, gradient);
    if (length2 > 1e-20) f += u_vorticity * u_h * cross(gradient * inversesqrt(length2), here.xyz);
#endif
  }
  o_out0 = vec4(f, 0.0);
}
