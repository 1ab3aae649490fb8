#version 460
#extension GL_EXT_ray_query : require
// One ray per invocation against a top-level acceleration structure; the closest hit distance (or -1)
// is stored. RADV lowers the traversal to image_bvh64_intersect_ray (RDNA2 and later only).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
struct Ray { vec4 origin_tmin; vec4 dir_tmax; };
layout(set = 0, binding = 1, std430) readonly buffer Rays { Ray r[]; } rays;
layout(set = 0, binding = 2, std430) writeonly buffer Hits { float t[]; } hits;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 o = rays.r[i].origin_tmin;
    rayQueryEXT q;
    rayQueryInitializeEXT(q, scene, gl_RayFlagsOpaqueEXT, 0xff, o.xyz, o.w, rays.r[i].dir_tmax.xyz,
                          rays.r[i].dir_tmax.w);
    while (rayQueryProceedEXT(q)) {}
    hits.t[i] = rayQueryGetIntersectionTypeEXT(q, true) != 0 ? rayQueryGetIntersectionTEXT(q, true) : -1.0;
}
