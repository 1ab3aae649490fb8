#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Half-precision layer blending (overlay and screen) of two textures.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D base;
layout(set = 0, binding = 1) uniform sampler2D blend;
void main() {
    f16vec4 a = f16vec4(texture(base, uv));
    f16vec4 b = f16vec4(texture(blend, uv));
    f16vec3 overlay = mix(float16_t(2.0) * a.rgb * b.rgb,
                          float16_t(1.0) - float16_t(2.0) * (float16_t(1.0) - a.rgb) * (float16_t(1.0) - b.rgb),
                          step(f16vec3(0.5), a.rgb));
    f16vec3 screen = float16_t(1.0) - (float16_t(1.0) - a.rgb) * (float16_t(1.0) - b.rgb);
    color = vec4(mix(overlay, screen, b.a), a.a);
}
