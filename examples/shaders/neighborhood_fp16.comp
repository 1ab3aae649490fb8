#version 450
// 9x9 neighbourhood mean and variance of an RGB radiance buffer in fp16 (the temporal-resolve pattern of
// docs: domain.md section 1.1). 8x8 threads per group stage a 16x16 tile (4-texel border) in LDS; each tile
// texel is one f16vec3, so the compiler can read halves straight into register halves.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, std430) readonly buffer Radiance { f16vec4 texels[]; } radiance;
layout(set = 0, binding = 1, std430) writeonly buffer Moments { f16vec4 mean_var[]; } moments;
layout(push_constant) uniform Params { uint width; uint height; float sigma; } params;

const int RADIUS = 4;
const int TILE = 8 + 2 * RADIUS;
shared f16vec3 tile[TILE][TILE];

void main() {
    ivec2 local = ivec2(gl_LocalInvocationID.xy);
    ivec2 origin = ivec2(gl_WorkGroupID.xy) * 8 - RADIUS;
    ivec2 size = ivec2(params.width, params.height);
    for (int y = local.y; y < TILE; y += 8) {
        for (int x = local.x; x < TILE; x += 8) {
            ivec2 p = clamp(origin + ivec2(x, y), ivec2(0), size - 1);
            tile[y][x] = radiance.texels[p.y * size.x + p.x].rgb;
        }
    }
    barrier();

    f16vec3 sum = f16vec3(0.0hf);
    f16vec3 sum_sq = f16vec3(0.0hf);
    float16_t weight_sum = 0.0hf;
    float inv_two_sigma_sq = 0.5 / (params.sigma * params.sigma);
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            f16vec3 c = tile[local.y + RADIUS + dy][local.x + RADIUS + dx];
            float16_t w = float16_t(exp(-float(dx * dx + dy * dy) * inv_two_sigma_sq));
            sum += c * w;
            sum_sq += c * c * w;
            weight_sum += w;
        }
    }
    f16vec3 mean = sum / weight_sum;
    f16vec3 variance = max(sum_sq / weight_sum - mean * mean, f16vec3(0.0hf));
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (all(lessThan(g, size))) {
        float16_t luminance_var = dot(variance, f16vec3(0.2126hf, 0.7152hf, 0.0722hf));
        moments.mean_var[g.y * size.x + g.x] = f16vec4(mean, luminance_var);
    }
}
