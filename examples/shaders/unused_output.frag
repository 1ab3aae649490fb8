#version 450
// Two colour outputs, only the second written: the first attachment's export is left out or undefined.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 unused;
layout(location = 1) out vec4 written;
void main() { written = vec4(uv, 0.0, 1.0); }
