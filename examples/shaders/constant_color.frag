#version 450
// A constant output: ACO exports immediates, no inputs and almost no registers.
layout(location = 0) out vec4 color;
void main() { color = vec4(0.2, 0.4, 0.8, 1.0); }
