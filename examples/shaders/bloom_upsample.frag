#version 450
// 3x3 tent-filter upsample for a bloom chain, added to the higher mip.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D low;
layout(set = 0, binding = 1) uniform sampler2D high;
layout(push_constant) uniform P { vec2 texel; float strength; } pc;
void main() {
    vec2 d = pc.texel;
    vec4 s = texture(low, uv - d) + 2.0 * texture(low, uv + vec2(0.0, -d.y)) + texture(low, uv + vec2(d.x, -d.y))
           + 2.0 * texture(low, uv + vec2(-d.x, 0.0)) + 4.0 * texture(low, uv) + 2.0 * texture(low, uv + vec2(d.x, 0.0))
           + texture(low, uv + vec2(-d.x, d.y)) + 2.0 * texture(low, uv + vec2(0.0, d.y)) + texture(low, uv + d);
    color = texture(high, uv) + pc.strength * s / 16.0;
}
