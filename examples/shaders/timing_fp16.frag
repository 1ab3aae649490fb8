#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// timing corpus (isalens timing --model aco): fragment, fp16
layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2D tex2;
layout(set = 0, binding = 2) uniform Params { vec4 tint; vec4 light; int count; float roughness; } u;
void main() {
    f16vec4 c = f16vec4(texture(tex, uv));
    f16vec4 t = f16vec4(u.tint);
    c = c * t + c * c;
    color = vec4(c);
}
