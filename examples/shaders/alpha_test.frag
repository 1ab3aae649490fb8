#version 450
// Alpha-tested foliage: discard below a cutoff, then a simple lit colour.
layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(push_constant) uniform Cut { vec4 light_dir_cutoff; } pc;
void main() {
    vec4 a = texture(albedo, uv);
    if (a.a < pc.light_dir_cutoff.w) discard;
    float ndl = max(dot(normalize(normal), pc.light_dir_cutoff.xyz), 0.0);
    color = vec4(a.rgb * (0.2 + 0.8 * ndl), 1.0);
}
