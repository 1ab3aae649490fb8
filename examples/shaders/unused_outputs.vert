#version 450
// Outputs written but constant (a colour that never changes) next to real ones.
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 uv_in;
layout(location = 0) out vec2 uv;
layout(location = 1) out vec4 tint;
layout(push_constant) uniform M { mat4 mvp; } m;
void main() {
    uv = uv_in;
    tint = vec4(1.0, 1.0, 1.0, 0.5);
    gl_Position = m.mvp * vec4(position, 1.0);
}
