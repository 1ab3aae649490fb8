#version 450
// timing corpus (isalens timing --model aco): fragment, discard
layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2D tex2;
layout(set = 0, binding = 2) uniform Params { vec4 tint; vec4 light; int count; float roughness; } u;
void main() {
    vec4 c = texture(tex, uv);
    if (c.a < 0.5) discard;
    color = c * u.tint;
}
