#version 450
// The fp32 twin of neighborhood_fp16.comp: same 9x9 filter, tile of vec3 in LDS.
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, std430) readonly buffer Radiance { vec4 texels[]; } radiance;
layout(set = 0, binding = 1, std430) writeonly buffer Moments { vec4 mean_var[]; } moments;
layout(push_constant) uniform Params { uint width; uint height; float sigma; } params;

const int RADIUS = 4;
const int TILE = 8 + 2 * RADIUS;
shared vec3 tile[TILE][TILE];

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

    vec3 sum = vec3(0.0);
    vec3 sum_sq = vec3(0.0);
    float weight_sum = 0.0;
    float inv_two_sigma_sq = 0.5 / (params.sigma * params.sigma);
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            vec3 c = tile[local.y + RADIUS + dy][local.x + RADIUS + dx];
            float w = exp(-float(dx * dx + dy * dy) * inv_two_sigma_sq);
            sum += c * w;
            sum_sq += c * c * w;
            weight_sum += w;
        }
    }
    vec3 mean = sum / weight_sum;
    vec3 variance = max(sum_sq / weight_sum - mean * mean, vec3(0.0));
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (all(lessThan(g, size))) {
        moments.mean_var[g.y * size.x + g.x] = vec4(mean, dot(variance, vec3(0.2126, 0.7152, 0.0722)));
    }
}
