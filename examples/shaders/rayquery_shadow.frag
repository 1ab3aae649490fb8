#version 460
#extension GL_EXT_ray_query : require
// Ray-traced hard shadows in a fragment shader: one shadow ray towards the light per pixel, terminated on
// the first hit (RADV: image_bvh64_intersect_ray in the pixel shader; RDNA2 and later only).
layout(location = 0) in vec3 world_pos;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(push_constant) uniform Light { vec4 dir; vec4 color; } light;
void main() {
    vec3 n = normalize(normal);
    vec3 l = normalize(-light.dir.xyz);
    rayQueryEXT q;
    rayQueryInitializeEXT(q, scene, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT, 0xff,
                          world_pos + n * 0.01, 0.0, l, 1000.0);
    while (rayQueryProceedEXT(q)) {}
    float lit = rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionNoneEXT ? 1.0 : 0.0;
    color = vec4(light.color.rgb * max(dot(n, l), 0.0) * lit + 0.05, 1.0);
}
