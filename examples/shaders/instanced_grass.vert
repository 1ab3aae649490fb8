#version 450
// Instanced grass blades: per-instance offsets from a storage buffer, wind sway by height.
layout(location = 0) in vec3 position;
layout(location = 0) out float height;
layout(set = 0, binding = 0, std430) readonly buffer Instances { vec4 offset_phase[]; } inst;
layout(push_constant) uniform Wind { mat4 view_projection; vec4 dir_time; } wind;
void main() {
    vec4 o = inst.offset_phase[gl_InstanceIndex];
    vec3 p = position;
    p.xz += wind.dir_time.xy * sin(wind.dir_time.w + o.w) * p.y * p.y;
    height = p.y;
    gl_Position = wind.view_projection * vec4(p + o.xyz, 1.0);
}
