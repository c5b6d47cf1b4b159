// Shared by reduction levels: how two partial results combine, and how the last level
// folds the four channels into the Scalar's .x.
#if defined(OP_MAXABS) || defined(OP_MAX)
#define COMBINE(acc, v) max(acc, v)
float foldChannels(vec4 a) { return max(max(a.x, a.y), max(a.z, a.w)); }
#else
#define COMBINE(acc, v) ((acc) + (v))
float foldChannels(vec4 a) { return (a.x + a.y) + (a.z + a.w); }
#endif

vec4 finish(vec4 acc) {
#ifdef FINAL
  float s = foldChannels(acc);
#ifdef FINAL_SQRT
  s = sqrt(s);
#endif
  return vec4(s, 0.0, 0.0, 0.0);
#else
  return acc;
#endif
}
