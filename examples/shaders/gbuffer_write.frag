#version 450
// Deferred G-buffer pass: four render targets (albedo, octahedral normal, material, motion vector).
layout(location = 0) in vec3 normal;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 cur_clip;
layout(location = 3) in vec4 prev_clip;
layout(location = 0) out vec4 albedo_out;
layout(location = 1) out vec4 normal_out;
layout(location = 2) out vec4 material_out;
layout(location = 3) out vec4 motion_out;
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform sampler2D material;
vec2 octahedral(vec3 n) {
    n /= abs(n.x) + abs(n.y) + abs(n.z);
    vec2 p = n.z >= 0.0 ? n.xy : (1.0 - abs(n.yx)) * sign(n.xy);
    return p * 0.5 + 0.5;
}
void main() {
    albedo_out = texture(albedo, uv);
    normal_out = vec4(octahedral(normalize(normal)), 0.0, 1.0);
    material_out = texture(material, uv);
    motion_out = vec4(cur_clip.xy / cur_clip.w - prev_clip.xy / prev_clip.w, 0.0, 1.0);
}
