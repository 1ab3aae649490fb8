// Neighbourhood statistics in fp16 with a half4 LDS tile; the fourth component
// (luminance) is carried through the filter so no lane of the vector is wasted.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GROUP 8
#define BORDER 4
#define TILE (GROUP + 2 * BORDER)
#define RADIUS 4

__constant half kTap[2 * RADIUS + 1] = {
    0.1353h, 0.3247h, 0.6065h, 0.8825h, 1.0h, 0.8825h, 0.6065h, 0.3247h, 0.1353h};

__kernel __attribute__((reqd_work_group_size(GROUP, GROUP, 1)))
void resolve_half4(__global const half4 *restrict radiance, __global half4 *restrict mean_out,
                   __global half4 *restrict var_out, int width, int height)
{
    __local half4 tile[TILE][TILE];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int ox = (int)get_group_id(0) * GROUP - BORDER;
    const int oy = (int)get_group_id(1) * GROUP - BORDER;

    for (int ty = ly; ty < TILE; ty += GROUP) {
        for (int tx = lx; tx < TILE; tx += GROUP) {
            const int sx = clamp(ox + tx, 0, width - 1);
            const int sy = clamp(oy + ty, 0, height - 1);
            half4 c = radiance[sy * width + sx];
            c.w = dot(c.xyz, (half3)(0.2126h, 0.7152h, 0.0722h));
            tile[ty][tx] = c;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    half4 sum = (half4)(0.0h);
    half4 sum_sq = (half4)(0.0h);
    half weight_sum = 0.0h;
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
#pragma unroll
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            const half w = kTap[dx + RADIUS] * kTap[dy + RADIUS];
            const half4 c = tile[ly + BORDER + dy][lx + BORDER + dx];
            sum += c * w;
            sum_sq += c * c * w;
            weight_sum += w;
        }
    }

    const half4 mean = sum / weight_sum;
    const half4 var = fabs(sum_sq / weight_sum - mean * mean);
    const int gx = get_global_id(0);
    const int gy = get_global_id(1);
    if (gx < width && gy < height) {
        mean_out[gy * width + gx] = mean;
        var_out[gy * width + gx] = var;
    }
}
