#version 450
// Depth-only pass: position only, no other outputs.
layout(location = 0) in vec3 position;
layout(push_constant) uniform L { mat4 light_mvp; } l;
void main() { gl_Position = l.light_mvp * vec4(position, 1.0); }
