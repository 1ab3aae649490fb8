#version 450
// Four octaves of value noise computed in the shader (ALU-only, no textures).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(push_constant) uniform T { float time; } t;
float hash(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453); }
float noise(vec2 p) {
    vec2 i = floor(p), f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    return mix(mix(hash(i), hash(i + vec2(1, 0)), u.x), mix(hash(i + vec2(0, 1)), hash(i + vec2(1, 1)), u.x), u.y);
}
void main() {
    float n = 0.0, a = 0.5;
    vec2 p = uv * 8.0 + t.time;
    for (int o = 0; o < 4; ++o) { n += a * noise(p); p *= 2.03; a *= 0.5; }
    color = vec4(vec3(n), 1.0);
}
