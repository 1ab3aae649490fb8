#version 450
// timing corpus (isalens timing --model aco): vertex, sphere map
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec3 out_normal;
layout(set = 0, binding = 0) uniform Camera { mat4 mvp; mat4 model; vec4 lights[8]; int light_count; float time; } cam;
void main() {
    vec3 n = normalize(normal);
    float phi = atan(n.z, n.x);
    float theta = acos(clamp(n.y, -1.0, 1.0));
    gl_Position = cam.mvp * vec4(position, 1.0);
    out_uv = vec2(phi / 6.2831, theta / 3.14159);
    out_normal = n;
}
