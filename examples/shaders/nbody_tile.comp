#version 450
// N-body accelerations with 128 bodies per tile staged in shared memory.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer Bodies { vec4 pos_mass[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Acc { vec4 acc[]; };
layout(push_constant) uniform P { uint count; float softening; } params;
shared vec4 tile[128];
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec3 me = pos_mass[min(i, params.count - 1u)].xyz;
    vec3 a = vec3(0.0);
    for (uint base = 0u; base < params.count; base += 128u) {
        tile[gl_LocalInvocationID.x] = pos_mass[base + gl_LocalInvocationID.x];
        barrier();
        for (uint j = 0u; j < 128u; ++j) {
            vec3 d = tile[j].xyz - me;
            float r2 = dot(d, d) + params.softening;
            a += d * (tile[j].w * inversesqrt(r2 * r2 * r2));
        }
        barrier();
    }
    if (i < params.count) acc[i] = vec4(a, 0.0);
}
