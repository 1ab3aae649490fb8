#version 450
// Integer and 16-bit-packed attributes: an object id and a quantised position decoded in the shader.
layout(location = 0) in uvec2 packed_pos;
layout(location = 1) in uint object_id;
layout(location = 0) flat out uint id;
layout(push_constant) uniform Q { vec4 scale_bias; mat4 mvp; } q;
void main() {
    vec3 p = vec3(float(packed_pos.x & 0xffffu), float(packed_pos.x >> 16u), float(packed_pos.y & 0xffffu));
    id = object_id;
    gl_Position = q.mvp * vec4(p * q.scale_bias.xyz + q.scale_bias.w, 1.0);
}
