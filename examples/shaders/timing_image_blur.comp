#version 450
// timing corpus (isalens timing --model aco): image blur
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(set = 0, binding = 0) buffer In { float a[]; } src;
layout(set = 0, binding = 1) buffer Out { float b[]; } dst;
layout(push_constant) uniform P { uint n; float k; int steps; } p;
layout(set = 0, binding = 2, rgba8) uniform readonly image2D img;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D outimg;
void main() {
    ivec2 c = ivec2(gl_GlobalInvocationID.xy);
    vec4 s = vec4(0.0);
    for (int y = -1;
    y <= 1;
    ++y) for (int x = -1;
    x <= 1;
    ++x) s += imageLoad(img, c + ivec2(x, y));
    imageStore(outimg, c, s / 9.0);
    dst.b[0] = p.k;
}
