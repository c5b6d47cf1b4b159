// Double-float arithmetic: a value held as an unevaluated sum hi + lo of two floats with
// |lo| <= ulp(hi) / 2, about 48 significant bits (Dekker 1971; Knuth's two-sum; used on
// GPUs for mixed-precision solvers by Göddeke, Strzodka & Turek 2007, §3). Every function
// works on four independent values at once (vec4 component-wise), like the vectors.
//
// The error-free transformations rely on each float operation being rounded as written.
// `precise` (GLSL 4.00, GLSL ES 3.20) forbids the compiler to simplify them algebraically
// ((a + b) - a is not b in floating point) or to contract them into fused multiply-adds.
// Older GLSL has no such qualifier, and compilers do simplify (Mesa does); there each
// difference the simplifier could see through is multiplied by u_doubleFloatOne, a uniform
// that Pass sets to 1 in every kernel that declares it: the compiler cannot know its value.
#if (defined(GL_ES) && __VERSION__ >= 320) || (!defined(GL_ES) && __VERSION__ >= 400)
#define DF_PRECISE precise
#define DF_GUARD(x) (x)
#else
#define DF_PRECISE
uniform float u_doubleFloatOne;
#define DF_GUARD(x) ((x) * u_doubleFloatOne)
#endif

// s + e = a + b exactly (Knuth's two-sum: no condition on |a|, |b|).
void dfTwoSum(vec4 a, vec4 b, out vec4 s, out vec4 e) {
  DF_PRECISE vec4 sum = a + b;
  DF_PRECISE vec4 bVirtual = DF_GUARD(DF_GUARD(sum) - a);
  DF_PRECISE vec4 aVirtual = DF_GUARD(sum - bVirtual);
  DF_PRECISE vec4 error = DF_GUARD(a - aVirtual) + DF_GUARD(b - bVirtual);
  s = sum;
  e = error;
}

// s + e = a + b exactly when |a| >= |b| (Dekker's fast two-sum), |e| <= ulp(s) / 2.
void dfQuickTwoSum(vec4 a, vec4 b, out vec4 s, out vec4 e) {
  DF_PRECISE vec4 sum = a + b;
  DF_PRECISE vec4 error = DF_GUARD(b - DF_GUARD(DF_GUARD(sum) - a));
  s = sum;
  e = error;
}

// hi + lo = a with hi holding the upper 12 significant bits (Dekker's split, 2^12 + 1).
void dfSplit(vec4 a, out vec4 hi, out vec4 lo) {
  DF_PRECISE vec4 c = 4097.0 * a;
  DF_PRECISE vec4 upper = DF_GUARD(c - DF_GUARD(DF_GUARD(c) - a));
  DF_PRECISE vec4 lower = DF_GUARD(a - upper);
  hi = upper;
  lo = lower;
}

// p + e = a b exactly (Dekker's two-product), barring overflow of 4097 a or 4097 b.
void dfTwoProduct(vec4 a, vec4 b, out vec4 p, out vec4 e) {
  vec4 aHi, aLo, bHi, bLo;
  dfSplit(a, aHi, aLo);
  dfSplit(b, bHi, bLo);
  DF_PRECISE vec4 product = a * b;
  DF_PRECISE vec4 error = DF_GUARD(DF_GUARD(DF_GUARD(aHi * bHi - product) + aHi * bLo) + aLo * bHi) + aLo * bLo;
  p = product;
  e = error;
}

// (hi, lo) += (bHi, bLo): double-float addition (Dekker's add2 with two-sum on the heads).
void dfAdd(inout vec4 hi, inout vec4 lo, vec4 bHi, vec4 bLo) {
  vec4 s, e;
  dfTwoSum(hi, bHi, s, e);
  DF_PRECISE vec4 tail = e + (lo + bLo);
  dfQuickTwoSum(s, tail, hi, lo);
}

// (hi, lo) += a (xHi + xLo) for a float a: the head product a xHi exactly, the tail a xLo
// in float (it is below the pair's precision times |a xHi|).
void dfAddProduct(inout vec4 hi, inout vec4 lo, vec4 a, vec4 xHi, vec4 xLo) {
  vec4 p, e;
  dfTwoProduct(a, xHi, p, e);
  DF_PRECISE vec4 tail = e + a * xLo;
  dfAdd(hi, lo, p, tail);
}

// (hi, lo) += (aHi + aLo)(xHi + xLo): a product of two pairs (a matrix entry kept with its
// tail, SegmentOptions::entryTails, times a pair); the cross terms in float, aLo xLo dropped
// (below the pair's precision).
void dfAddPairProduct(inout vec4 hi, inout vec4 lo, vec4 aHi, vec4 aLo, vec4 xHi, vec4 xLo) {
  vec4 p, e;
  dfTwoProduct(aHi, xHi, p, e);
  DF_PRECISE vec4 tail = e + (aHi * xLo + aLo * xHi);
  dfAdd(hi, lo, p, tail);
}

// (pHi, pLo) = (aHi + aLo)(bHi + bLo), normalised (|pLo| <= ulp(pHi) / 2).
void dfMul(vec4 aHi, vec4 aLo, vec4 bHi, vec4 bLo, out vec4 pHi, out vec4 pLo) {
  vec4 p, e;
  dfTwoProduct(aHi, bHi, p, e);
  DF_PRECISE vec4 tail = e + (aHi * bLo + aLo * bHi);
  dfQuickTwoSum(p, tail, pHi, pLo);
}

// (qHi, qLo) = (aHi + aLo) / (bHi + bLo): a float quotient, corrected once by the remainder
// a - q b formed in double-float arithmetic (Dekker 1971's div2).
void dfDiv(vec4 aHi, vec4 aLo, vec4 bHi, vec4 bLo, out vec4 qHi, out vec4 qLo) {
  DF_PRECISE vec4 q = aHi / bHi;
  vec4 pHi, pLo;
  dfMul(q, vec4(0.0), bHi, bLo, pHi, pLo);
  vec4 rHi = aHi, rLo = aLo;
  dfAdd(rHi, rLo, -pHi, -pLo);
  DF_PRECISE vec4 correction = (rHi + rLo) / bHi;
  dfQuickTwoSum(q, correction, qHi, qLo);
}

// The four channels of a pair summed into .x of (hi, lo).
void dfFoldChannels(inout vec4 hi, inout vec4 lo) {
  vec4 sumHi = vec4(hi.x, 0.0, 0.0, 0.0), sumLo = vec4(lo.x, 0.0, 0.0, 0.0);
  dfAdd(sumHi, sumLo, vec4(hi.y, 0.0, 0.0, 0.0), vec4(lo.y, 0.0, 0.0, 0.0));
  dfAdd(sumHi, sumLo, vec4(hi.z, 0.0, 0.0, 0.0), vec4(lo.z, 0.0, 0.0, 0.0));
  dfAdd(sumHi, sumLo, vec4(hi.w, 0.0, 0.0, 0.0), vec4(lo.w, 0.0, 0.0, 0.0));
  hi = sumHi;
  lo = sumLo;
}
