#version 450
// A vertex shader that never writes gl_Position: ACO exports its undefined value (pos0 from v128).
layout(location = 0) in vec4 a;
layout(location = 0) out vec4 color;
void main() { color = a * 2.0; }
