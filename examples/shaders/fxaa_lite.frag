#version 450
// A reduced FXAA: luma edge detection over the 4-neighbourhood and a blend along the edge.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D scene;
layout(push_constant) uniform Texel { vec2 size; } texel;
float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }
void main() {
    vec3 m = texture(scene, uv).rgb;
    float ln = luma(texture(scene, uv + vec2(0.0, -texel.size.y)).rgb);
    float ls = luma(texture(scene, uv + vec2(0.0, texel.size.y)).rgb);
    float le = luma(texture(scene, uv + vec2(texel.size.x, 0.0)).rgb);
    float lw = luma(texture(scene, uv + vec2(-texel.size.x, 0.0)).rgb);
    float lm = luma(m);
    float range = max(max(ln, ls), max(max(le, lw), lm)) - min(min(ln, ls), min(min(le, lw), lm));
    if (range < 0.05) { color = vec4(m, 1.0); return; }
    vec2 dir = abs(ln + ls - 2.0 * lm) > abs(le + lw - 2.0 * lm) ? vec2(texel.size.x, 0.0) : vec2(0.0, texel.size.y);
    color = vec4(0.5 * (texture(scene, uv + dir * 0.5).rgb + texture(scene, uv - dir * 0.5).rgb), 1.0);
}
