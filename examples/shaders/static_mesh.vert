#version 450
// A static mesh: model-view-projection from a uniform buffer, normal matrix, uv.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(set = 0, binding = 0) uniform Object { mat4 model; mat4 view_projection; } object;
void main() {
    vec4 world = object.model * vec4(position, 1.0);
    out_normal = mat3(object.model) * normal;
    out_uv = uv;
    gl_Position = object.view_projection * world;
}
