#version 450
// Cook-Torrance GGX shading with one directional light, metal/roughness textures and an ambient term.
layout(location = 0) in vec3 world_pos;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D base_color;
layout(set = 0, binding = 1) uniform sampler2D metal_rough;
layout(set = 0, binding = 2) uniform Frame { vec4 eye; vec4 light_dir; vec4 light_color; } frame;
const float PI = 3.14159265;
void main() {
    vec3 albedo = texture(base_color, uv).rgb;
    vec2 mr = texture(metal_rough, uv).bg;
    vec3 n = normalize(normal), v = normalize(frame.eye.xyz - world_pos), l = normalize(-frame.light_dir.xyz);
    vec3 h = normalize(v + l);
    float a = mr.y * mr.y, a2 = a * a;
    float ndh = max(dot(n, h), 0.0), ndv = max(dot(n, v), 1e-4), ndl = max(dot(n, l), 0.0);
    float d = a2 / (PI * pow(ndh * ndh * (a2 - 1.0) + 1.0, 2.0));
    float k = (mr.y + 1.0) * (mr.y + 1.0) / 8.0;
    float g = ndv / (ndv * (1.0 - k) + k) * ndl / (ndl * (1.0 - k) + k);
    vec3 f0 = mix(vec3(0.04), albedo, mr.x);
    vec3 f = f0 + (1.0 - f0) * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    vec3 spec = d * g * f / max(4.0 * ndv * ndl, 1e-4);
    vec3 diffuse = (1.0 - f) * (1.0 - mr.x) * albedo / PI;
    color = vec4((diffuse + spec) * frame.light_color.rgb * ndl + albedo * 0.03, 1.0);
}
