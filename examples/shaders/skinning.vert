#version 450
// Linear-blend skinning with four bone influences, 64 bones in a uniform buffer, and the usual outputs
// of a forward renderer (world position, normal, tangent, uv).
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 tangent;
layout(location = 3) in vec2 uv;
layout(location = 4) in uvec4 bones;
layout(location = 5) in vec4 weights;

layout(location = 0) out vec3 out_world_pos;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_tangent;
layout(location = 3) out vec2 out_uv;

layout(set = 0, binding = 0) uniform Skeleton { mat4 bone[64]; } skeleton;
layout(push_constant) uniform Camera { mat4 view_projection; } camera;

void main() {
    mat4 skin = skeleton.bone[bones.x] * weights.x + skeleton.bone[bones.y] * weights.y
              + skeleton.bone[bones.z] * weights.z + skeleton.bone[bones.w] * weights.w;
    vec4 world = skin * vec4(position, 1.0);
    out_world_pos = world.xyz;
    out_normal = normalize(mat3(skin) * normal);
    out_tangent = vec4(normalize(mat3(skin) * tangent.xyz), tangent.w);
    out_uv = uv;
    gl_Position = camera.view_projection * world;
}
