// Temporal-resolve style neighbourhood statistics, fp32 reference layout.
// An 8x8 group stages a 16x16 tile (8x8 interior + 4-texel border) of RGB radiance in
// LDS as three planar float arrays, then every thread accumulates a weighted 9x9 mean
// and variance. The loops are fully unrolled, so the weights become literals.

#define GROUP 8
#define BORDER 4
#define TILE (GROUP + 2 * BORDER)
#define RADIUS 4

__constant float kTap[2 * RADIUS + 1] = {
    0.1353f, 0.3247f, 0.6065f, 0.8825f, 1.0f, 0.8825f, 0.6065f, 0.3247f, 0.1353f};

__kernel __attribute__((reqd_work_group_size(GROUP, GROUP, 1)))
void resolve_fp32(__global const float4 *restrict radiance, __global float4 *restrict mean_out,
                  __global float4 *restrict var_out, int width, int height)
{
    __local float red[TILE][TILE];
    __local float green[TILE][TILE];
    __local float blue[TILE][TILE];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int ox = (int)get_group_id(0) * GROUP - BORDER;
    const int oy = (int)get_group_id(1) * GROUP - BORDER;

    for (int ty = ly; ty < TILE; ty += GROUP) {
        for (int tx = lx; tx < TILE; tx += GROUP) {
            const int sx = clamp(ox + tx, 0, width - 1);
            const int sy = clamp(oy + ty, 0, height - 1);
            const float4 c = radiance[sy * width + sx];
            red[ty][tx] = c.x;
            green[ty][tx] = c.y;
            blue[ty][tx] = c.z;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    float3 sum = (float3)(0.0f);
    float3 sum_sq = (float3)(0.0f);
    float weight_sum = 0.0f;
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
#pragma unroll
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            const int y = ly + BORDER + dy;
            const int x = lx + BORDER + dx;
            const float w = kTap[dx + RADIUS] * kTap[dy + RADIUS];
            const float3 c = (float3)(red[y][x], green[y][x], blue[y][x]);
            sum += c * w;
            sum_sq += c * c * w;
            weight_sum += w;
        }
    }

    const float3 mean = sum / weight_sum;
    const float3 var = fabs(sum_sq / weight_sum - mean * mean);
    const int gx = get_global_id(0);
    const int gy = get_global_id(1);
    if (gx < width && gy < height) {
        mean_out[gy * width + gx] = (float4)(mean, 1.0f);
        var_out[gy * width + gx] = (float4)(var, 0.0f);
    }
}
