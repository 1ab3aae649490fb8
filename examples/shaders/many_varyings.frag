#version 450
// Twelve interpolated inputs (ACO reserves LDS per input) summed with weights.
layout(location = 0) in vec4 v0;  layout(location = 1) in vec4 v1;  layout(location = 2) in vec4 v2;
layout(location = 3) in vec4 v3;  layout(location = 4) in vec4 v4;  layout(location = 5) in vec4 v5;
layout(location = 6) in vec4 v6;  layout(location = 7) in vec4 v7;  layout(location = 8) in vec4 v8;
layout(location = 9) in vec4 v9;  layout(location = 10) in vec4 v10; layout(location = 11) in vec4 v11;
layout(location = 0) out vec4 color;
void main() {
    color = v0 * v1 + v2 * v3 + v4 * v5 + v6 * v7 + v8 * v9 + v10 * v11;
}
