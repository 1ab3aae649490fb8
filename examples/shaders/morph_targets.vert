#version 450
// Blend shapes: base position plus three weighted morph-target deltas.
layout(location = 0) in vec3 base;
layout(location = 1) in vec3 delta0;
layout(location = 2) in vec3 delta1;
layout(location = 3) in vec3 delta2;
layout(location = 0) out vec3 world;
layout(push_constant) uniform P { mat4 mvp; vec4 weights; } p;
void main() {
    world = base + delta0 * p.weights.x + delta1 * p.weights.y + delta2 * p.weights.z;
    gl_Position = p.mvp * vec4(world, 1.0);
}
