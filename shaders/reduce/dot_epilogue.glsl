// x . y in one dispatch handed to an epilogue from another file: the generic half of
// LinearOperator::applyAndDot (stream::composeReductionKernel appends the epilogue).
// Pass defines OP_DOT and binds u_x, u_y.
#include "reduce/workgroup.glsl"
#include "reduce/elements.glsl"
