#version 450
// Colour grading through a 3D lookup table (a 3D texture), with an exposure from push constants.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D scene;
layout(set = 0, binding = 1) uniform sampler3D lut;
layout(push_constant) uniform E { float exposure; float lut_size; } e;
void main() {
    vec3 c = clamp(texture(scene, uv).rgb * e.exposure, 0.0, 1.0);
    vec3 coord = c * ((e.lut_size - 1.0) / e.lut_size) + 0.5 / e.lut_size;
    color = vec4(texture(lut, coord).rgb, 1.0);
}
