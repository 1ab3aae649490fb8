#version 450
// 2x2 box downsample from a sampled image into a storage image (one mip level).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 s = p * 2;
    vec4 c = texelFetch(src, s, 0) + texelFetch(src, s + ivec2(1, 0), 0)
           + texelFetch(src, s + ivec2(0, 1), 0) + texelFetch(src, s + ivec2(1, 1), 0);
    imageStore(dst, p, c * 0.25);
}
