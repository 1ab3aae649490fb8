#version 450
// Sobel gradient magnitude of the luminance of an image, 3x3 taps read with texelFetch.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D edges;
float lum(ivec2 p) { return dot(texelFetch(src, p, 0).rgb, vec3(0.299, 0.587, 0.114)); }
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    float tl = lum(p + ivec2(-1, -1)), t = lum(p + ivec2(0, -1)), tr = lum(p + ivec2(1, -1));
    float l = lum(p + ivec2(-1, 0)), r = lum(p + ivec2(1, 0));
    float bl = lum(p + ivec2(-1, 1)), b = lum(p + ivec2(0, 1)), br = lum(p + ivec2(1, 1));
    float gx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
    float gy = (bl + 2.0 * b + br) - (tl + 2.0 * t + tr);
    imageStore(edges, p, vec4(sqrt(gx * gx + gy * gy)));
}
