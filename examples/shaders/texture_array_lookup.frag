#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Bindless-style material lookup: a texture index per fragment into a descriptor array (non-uniform).
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D textures[16];
void main() {
    color = texture(textures[nonuniformEXT(material & 15u)], uv);
}
