// CG direction update factor on one texel: beta = rho' / rho (Krüger & Westermann,
// Listing 44-1, "beta = newrho/rho"). rho = 0 only after an exact solution or a recorded
// failure (alpha is then 0 and the status says why), so beta = 0 there.
// A non-finite rho' passes through: the next cg_alpha pass records it.
uniform sampler2D u_rhoNew;
uniform sampler2D u_rho;

void kernel(ivec2 texel) {
  float rhoNew = texelFetch(u_rhoNew, ivec2(0), 0).x;
  float rho = texelFetch(u_rho, ivec2(0), 0).x;
  o_out0 = vec4(rho != 0.0 ? rhoNew / rho : 0.0, 0.0, 0.0, 0.0);
}
