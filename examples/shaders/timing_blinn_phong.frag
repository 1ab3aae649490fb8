#version 450
// timing corpus (isalens timing --model aco): fragment, blinn phong
layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2D tex2;
layout(set = 0, binding = 2) uniform Params { vec4 tint; vec4 light; int count; float roughness; } u;
void main() {
    vec3 n = normalize(normal);
    vec3 l = normalize(u.light.xyz);
    vec3 h = normalize(l + vec3(0.0, 0.0, 1.0));
    float s = pow(max(dot(n, h), 0.0), 32.0);
    color = vec4(texture(tex, uv).rgb * max(dot(n, l), 0.0) + s, 1.0);
}
