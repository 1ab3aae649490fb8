#version 450
// Full-screen tone mapping: exposure from a uniform block, ACES-like curve, bloom added from a second
// texture, vignette from the UV. One combined image sampler array and one uniform buffer.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

layout(set = 0, binding = 0) uniform sampler2D images[2];  // [0] scene HDR, [1] bloom
layout(set = 0, binding = 1) uniform Exposure {
    float exposure;
    float bloom_strength;
    float vignette;
    float gamma;
} params;

vec3 aces(vec3 x) {
    const float a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), 0.0, 1.0);
}

void main() {
    vec3 hdr = texture(images[0], uv).rgb;
    vec3 bloom = textureLod(images[1], uv, 1.0).rgb;
    vec3 mapped = aces((hdr + bloom * params.bloom_strength) * params.exposure);
    vec2 d = uv - 0.5;
    mapped *= 1.0 - params.vignette * dot(d, d);
    color = vec4(pow(mapped, vec3(1.0 / params.gamma)), 1.0);
}
