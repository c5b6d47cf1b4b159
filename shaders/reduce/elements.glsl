// element() for reduce/workgroup.glsl: one texel's contribution to a sum, dot, sum of
// squares or max |x| (the element-wise work fused into the reduction, as in level.glsl).
uniform sampler2D u_x;
uniform sampler2D u_y;

vec4 element(ivec2 c) {
  vec4 v = texelFetch(u_x, c, 0);
#if defined(OP_DOT)
  v *= texelFetch(u_y, c, 0);
#elif defined(OP_SUMSQ)
  v *= v;
#elif defined(OP_MAXABS)
  v = abs(v);
#endif
  return v;
}
