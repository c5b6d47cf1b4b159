// The epilogue of a plain reduction (stream::sum, dot, norm2, maxAbs on the compute
// backend): the result into the output Scalar's .x.
void epilogue(float value) { imageStore(EPILOGUE_IMAGE0, ivec2(0), vec4(value, 0.0, 0.0, 0.0)); }
