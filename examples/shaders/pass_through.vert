#version 450
// Passes a position and a colour through unchanged: the smallest vertex shader with outputs.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color_in;
layout(location = 0) out vec4 color;
void main() { color = color_in; gl_Position = position; }
