// diag(A) of the pressure operator of a 3D fluid domain: its diagonal field with the air
// cells' -1 (a label the multigrid reads) turned into the 0 of their empty rows.
uniform sampler2D u_diagonal;

void kernel(ivec2 texel) { o_out0 = max(texelFetch(u_diagonal, texel, 0), vec4(0.0)); }
