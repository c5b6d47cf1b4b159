// Writes the point's product; the RGBA32F target blends with glBlendFunc(GL_ONE, GL_ONE).
flat in vec4 v_product;
layout(location = 0) out vec4 o_out0;

void main() { o_out0 = v_product; }
