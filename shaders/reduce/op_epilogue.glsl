// A one-dispatch reduction of OP_SUM / OP_DOT / OP_SUMSQ / OP_MAXABS (reduce/elements.glsl;
// the pass defines the op and binds u_x, u_y) handed to an epilogue from a file of its own,
// which stream::composeReductionKernel appends (stream::reduceInto).
#include "reduce/workgroup.glsl"
#include "reduce/elements.glsl"
