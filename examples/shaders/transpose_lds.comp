#version 450
// Matrix transpose through a padded 32x33 shared tile (no bank conflicts on the column read).
layout(local_size_x = 32, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer In { float src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float dst[]; };
layout(push_constant) uniform Size { uint width; uint height; } size;
shared float tile[32][33];
void main() {
    uvec2 block = gl_WorkGroupID.xy * 32u;
    uvec2 l = gl_LocalInvocationID.xy;
    for (uint j = 0u; j < 32u; j += 8u)
        tile[l.y + j][l.x] = src[(block.y + l.y + j) * size.width + block.x + l.x];
    barrier();
    for (uint j = 0u; j < 32u; j += 8u)
        dst[(block.x + l.y + j) * size.height + block.y + l.x] = tile[l.x][l.y + j];
}
