#version 450
// timing corpus (isalens timing --model aco): vertex, morph
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec3 out_normal;
layout(set = 0, binding = 0) uniform Camera { mat4 mvp; mat4 model; vec4 lights[8]; int light_count; float time; } cam;
void main() {
    vec3 a = position;
    vec3 b = normal * 0.5 + position;
    float t = fract(cam.time);
    vec3 p = mix(a, b, smoothstep(0.0, 1.0, t));
    gl_Position = cam.mvp * vec4(p, 1.0);
    out_uv = uv;
    out_normal = normalize(b - a);
}
