#version 450
// Screen-space ambient occlusion with a 16-sample hemisphere kernel from a uniform buffer.
layout(location = 0) in vec2 uv;
layout(location = 0) out float occlusion;
layout(set = 0, binding = 0) uniform sampler2D depth;
layout(set = 0, binding = 1) uniform sampler2D normals;
layout(set = 0, binding = 2) uniform Kernel { vec4 samples[16]; mat4 projection; } k;
vec3 view_pos(vec2 t) {
    float z = texture(depth, t).r;
    vec4 p = inverse(k.projection) * vec4(t * 2.0 - 1.0, z, 1.0);
    return p.xyz / p.w;
}
void main() {
    vec3 p = view_pos(uv);
    vec3 n = normalize(texture(normals, uv).xyz * 2.0 - 1.0);
    float occ = 0.0;
    for (int i = 0; i < 16; ++i) {
        vec3 s = p + faceforward(k.samples[i].xyz, -n, k.samples[i].xyz) * 0.5;
        vec4 c = k.projection * vec4(s, 1.0);
        vec2 t = c.xy / c.w * 0.5 + 0.5;
        float z = view_pos(t).z;
        occ += (z >= s.z + 0.025 ? 1.0 : 0.0) * smoothstep(0.0, 1.0, 0.5 / abs(p.z - z));
    }
    occlusion = 1.0 - occ / 16.0;
}
