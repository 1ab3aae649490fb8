#version 450
// 5x5 percentage-closer filtering with a depth comparison sampler.
layout(location = 0) in vec4 shadow_coord;
layout(location = 1) in vec3 color_in;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2DShadow shadow_map;
layout(push_constant) uniform P { vec2 texel; } pc;
void main() {
    vec3 c = shadow_coord.xyz / shadow_coord.w;
    float lit = 0.0;
    for (int y = -2; y <= 2; ++y)
        for (int x = -2; x <= 2; ++x)
            lit += texture(shadow_map, vec3(c.xy + vec2(x, y) * pc.texel, c.z));
    color = vec4(color_in * (0.3 + 0.7 * lit / 25.0), 1.0);
}
