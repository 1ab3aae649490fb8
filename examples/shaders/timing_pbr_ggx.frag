#version 450
// timing corpus (isalens timing --model aco): fragment, pbr ggx
layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2D tex2;
layout(set = 0, binding = 2) uniform Params { vec4 tint; vec4 light; int count; float roughness; } u;
void main() {
    vec3 n = normalize(normal);
    vec3 l = normalize(u.light.xyz);
    vec3 v = vec3(0.0, 0.0, 1.0);
    vec3 h = normalize(l + v);
    float a = u.roughness * u.roughness;
    float nh = max(dot(n, h), 0.0);
    float d = a * a / (3.14159 * pow(nh * nh * (a * a - 1.0) + 1.0, 2.0));
    float nl = max(dot(n, l), 0.0);
    float nv = max(dot(n, v), 0.001);
    float k = (u.roughness + 1.0) * (u.roughness + 1.0) / 8.0;
    float g = nl / (nl * (1.0 - k) + k) * nv / (nv * (1.0 - k) + k);
    vec3 f = u.tint.rgb + (1.0 - u.tint.rgb) * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    color = vec4(texture(tex, uv).rgb * nl + d * g * f / (4.0 * nl * nv + 0.001), 1.0);
}
