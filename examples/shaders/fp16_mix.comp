#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// Packed half-precision colour grading: a 3x3 matrix and a lift/gamma/gain curve on f16vec4 pixels.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Pixels { f16vec4 px[]; };
layout(push_constant) uniform Grade { vec4 m0; vec4 m1; vec4 m2; vec4 lift_gamma; } g;
void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec3 c = px[i].rgb;
    f16mat3 m = f16mat3(f16vec3(g.m0.xyz), f16vec3(g.m1.xyz), f16vec3(g.m2.xyz));
    c = m * c;
    c = c + float16_t(g.lift_gamma.x) * (float16_t(1.0) - c);
    c = pow(max(c, f16vec3(0.0)), f16vec3(float16_t(g.lift_gamma.y)));
    px[i] = f16vec4(c, px[i].a);
}
