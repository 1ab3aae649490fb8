#version 450
// timing corpus (isalens timing --model aco): vertex, mvp
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec3 out_normal;
layout(set = 0, binding = 0) uniform Camera { mat4 mvp; mat4 model; vec4 lights[8]; int light_count; float time; } cam;
void main() {
    gl_Position = cam.mvp * vec4(position, 1.0);
    out_uv = uv;
    out_normal = mat3(cam.model) * normal;
}
