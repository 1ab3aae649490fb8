#version 450
// Forward shading with up to 16 point lights from a storage buffer, a normal map and a material
// texture (separate image and sampler), flat-interpolated material index. Fragment inputs of several
// types exercise the generated companion vertex shader.
layout(location = 0) in vec3 world_pos;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 tangent;
layout(location = 3) in vec2 uv;
layout(location = 4) flat in uint material;
layout(location = 0) out vec4 color;

struct Light { vec4 position_radius; vec4 color_intensity; };
layout(set = 0, binding = 0, std430) readonly buffer Lights { uint count; Light lights[]; } scene;
layout(set = 1, binding = 0) uniform texture2D textures[8];
layout(set = 1, binding = 1) uniform sampler linear_sampler;
layout(push_constant) uniform Camera { vec4 eye; } camera;

void main() {
    vec3 n = normalize(normal);
    vec3 t = normalize(tangent.xyz - n * dot(n, tangent.xyz));
    vec3 b = cross(n, t) * tangent.w;
    vec3 tn = texture(sampler2D(textures[material * 2u + 1u], linear_sampler), uv).xyz * 2.0 - 1.0;
    n = normalize(mat3(t, b, n) * tn);
    vec4 albedo = texture(sampler2D(textures[material * 2u], linear_sampler), uv);
    vec3 v = normalize(camera.eye.xyz - world_pos);
    vec3 result = albedo.rgb * 0.03;
    uint count = min(scene.count, 16u);
    for (uint i = 0u; i < count; ++i) {
        Light light = scene.lights[i];
        vec3 l = light.position_radius.xyz - world_pos;
        float dist = length(l);
        l /= dist;
        float falloff = clamp(1.0 - dist / light.position_radius.w, 0.0, 1.0);
        vec3 h = normalize(l + v);
        float diffuse = max(dot(n, l), 0.0);
        float specular = pow(max(dot(n, h), 0.0), 64.0);
        result += (albedo.rgb * diffuse + specular) * light.color_intensity.rgb * light.color_intensity.w
                  * falloff * falloff;
    }
    color = vec4(result, albedo.a);
}
