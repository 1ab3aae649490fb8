// Neighbourhood statistics in fp16 with a tightly packed half3 LDS array (6 bytes per
// texel, accessed through vload3/vstore3). Each component is a separate 16-bit LDS
// access, so loads can land directly in one half of a VGPR (d16 / d16_hi forms).

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GROUP 8
#define BORDER 4
#define TILE (GROUP + 2 * BORDER)
#define RADIUS 4

__constant half kTap[2 * RADIUS + 1] = {
    0.1353h, 0.3247h, 0.6065h, 0.8825h, 1.0h, 0.8825h, 0.6065h, 0.3247h, 0.1353h};

__kernel __attribute__((reqd_work_group_size(GROUP, GROUP, 1)))
void resolve_half3(__global const half4 *restrict radiance, __global half4 *restrict mean_out,
                   __global half4 *restrict var_out, int width, int height)
{
    __local half tile[TILE * TILE * 3];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int ox = (int)get_group_id(0) * GROUP - BORDER;
    const int oy = (int)get_group_id(1) * GROUP - BORDER;

    for (int ty = ly; ty < TILE; ty += GROUP) {
        for (int tx = lx; tx < TILE; tx += GROUP) {
            const int sx = clamp(ox + tx, 0, width - 1);
            const int sy = clamp(oy + ty, 0, height - 1);
            const half4 c = radiance[sy * width + sx];
            vstore3(c.xyz, ty * TILE + tx, tile);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    half3 sum = (half3)(0.0h);
    half3 sum_sq = (half3)(0.0h);
    half weight_sum = 0.0h;
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
#pragma unroll
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            const half w = kTap[dx + RADIUS] * kTap[dy + RADIUS];
            const half3 c = vload3((ly + BORDER + dy) * TILE + lx + BORDER + dx, tile);
            sum += c * w;
            sum_sq += c * c * w;
            weight_sum += w;
        }
    }

    const half3 mean = sum / weight_sum;
    const half3 var = fabs(sum_sq / weight_sum - mean * mean);
    const int gx = get_global_id(0);
    const int gy = get_global_id(1);
    if (gx < width && gy < height) {
        mean_out[gy * width + gx] = (half4)(mean, 1.0h);
        var_out[gy * width + gx] = (half4)(var, 0.0h);
    }
}
