// Which tiles of a tiled-sweeps dispatch (multigrid/sweep_tile.glsl) take the uniform-tile
// program: a tile whose every texel, halo included, owns its four nodes and is flagged
// constant (stencil.glsl) needs neither the stencil textures nor gathers, so its program
// holds no stencil in registers and more of its workgroups fit on a multiprocessor. With
// RESTRICT the coarse texels its projection writes must own theirs too (no gather of the
// coarse centre).
// One workgroup a tile (u_tiles of them, tile k at u_origin + k kTile - HALO with its
// halo, as sweep_tile.glsl's): u_image0 (R32F, one texel a tile) = 1 for a uniform tile.
layout(local_size_x = 8, local_size_y = 8) in;
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"

uniform ivec4 u_grid;
uniform ivec2 u_origin;
#ifdef RESTRICT
uniform ivec4 u_coarse;
#endif

const int kTile = TILE_THREADS - 2 * HALO;
shared uint s_uniform;

void main() {
  if (gl_LocalInvocationIndex == 0u) s_uniform = 1u;
  barrier();
  ivec2 first = u_origin + ivec2(gl_WorkGroupID.xy) * kTile - HALO;
  bool uniformTile = true;
  for (int y = int(gl_LocalInvocationID.y); y < TILE_THREADS; y += 8) {
    for (int x = int(gl_LocalInvocationID.x); x < TILE_THREADS; x += 8) {
      ivec2 v = first + ivec2(x, y);
      // stencilConstant fetches the flags only where v is inside the texture.
      uniformTile = uniformTile && all(layeredOwned(u_grid, v)) && stencilConstant(v);
#ifdef RESTRICT
      if (all(equal((v + 1) & 1, ivec2(0)))) uniformTile = uniformTile && all(layeredOwned(u_coarse, (v + 1) / 2));
#endif
    }
  }
  if (!uniformTile) atomicAnd(s_uniform, 0u);
  barrier();
  if (gl_LocalInvocationIndex == 0u) imageStore(u_image0, ivec2(gl_WorkGroupID.xy), vec4(float(s_uniform)));
}
