// Included first by the generated enhanced block Jacobi slab kernel (src/solvers/EbjKernel.h,
// Bajaj et al. 2004, §4.1). Not a kernel by itself.
//
// Storage (src/solvers/stationary/EnhancedBlockJacobi.h): slab s is a texture of ny x nz texels,
// texel (j, k) holding the four unknowns of slab s of grid line (j, k) (the paper's
// TEX_X_i, Figure 12); f and the residual are "packed": the slabs stacked, texel
// (j, k + nz s). Variant defines: EBJ_SLAB (the slab updated), EBJ_DIMENSIONS (2: nz = 1, no
// k neighbours; 3), EBJ_NEUMANN_Y / EBJ_NEUMANN_Z (else Dirichlet in that direction).
uniform sampler2D u_self;   // slab EBJ_SLAB: its old values (the centre and the j/k neighbours)
uniform sampler2D u_f;      // packed right-hand side
uniform int u_residual;     // 0: o_out0 = the new slab; 1: o_out0 = (f - A x) of the slab
uniform int u_outputOffset; // output texel (j, k + u_outputOffset): 0 into a slab, nz s packed
