// MacCormack correction with Selle et al.'s 2008 limiter: q' = qhat + (q - qtilde) / 2,
// qhat = A(q), qtilde = A^R(qhat); clamped to the range of the four nodes of q around the
// back-traced point, so the step cannot create new extrema.
#include "fluid/nodes.glsl"
uniform sampler2D u_q;
uniform sampler2D u_forward;
uniform sampler2D u_backward;
uniform sampler2D u_velocity;
uniform float u_cells;
uniform float u_scale;
uniform float u_damping;

void kernel(ivec2 p) {
  vec2 x = vec2(p) / u_scale;
  vec2 from = (x - u_cells * bilinear(u_velocity, x).xy) * u_scale;
  vec4 hat = texelFetch(u_forward, p, 0);
  vec4 corrected = hat + 0.5 * (texelFetch(u_q, p, 0) * u_damping - texelFetch(u_backward, p, 0));
  vec4 lo, hi;
  cornerRange(u_q, from, lo, hi);
  o_out0 = clamp(corrected, lo * u_damping, hi * u_damping);
}
