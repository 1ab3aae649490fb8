#version 450
// timing corpus (isalens timing --model aco): vertex, billboard
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec3 out_normal;
layout(set = 0, binding = 0) uniform Camera { mat4 mvp; mat4 model; vec4 lights[8]; int light_count; float time; } cam;
void main() {
    vec3 right = vec3(cam.model[0][0], cam.model[1][0], cam.model[2][0]);
    vec3 up = vec3(cam.model[0][1], cam.model[1][1], cam.model[2][1]);
    vec3 p = position + right * (uv.x - 0.5) + up * (uv.y - 0.5);
    gl_Position = cam.mvp * vec4(p, 1.0);
    out_uv = uv;
    out_normal = cross(right, up);
}
