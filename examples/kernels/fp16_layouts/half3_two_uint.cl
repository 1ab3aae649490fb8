// Neighbourhood statistics in fp16, half3 radiance split over two uint LDS arrays:
// .xy packed into one word of `rg`, .z in the low half of a word of `bz`. The two
// arrays are 1 KiB apart, which invites ds_read2st64_b32 pairs whose second register
// (the .z half) lives far longer than the first.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GROUP 8
#define BORDER 4
#define TILE (GROUP + 2 * BORDER)
#define RADIUS 4

__constant half kTap[2 * RADIUS + 1] = {
    0.1353h, 0.3247h, 0.6065h, 0.8825h, 1.0h, 0.8825h, 0.6065h, 0.3247h, 0.1353h};

__kernel __attribute__((reqd_work_group_size(GROUP, GROUP, 1)))
void resolve_half3_two_uint(__global const half4 *restrict radiance, __global half4 *restrict mean_out,
                            __global half4 *restrict var_out, int width, int height)
{
    __local uint rg[TILE][TILE];
    __local uint bz[TILE][TILE];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int ox = (int)get_group_id(0) * GROUP - BORDER;
    const int oy = (int)get_group_id(1) * GROUP - BORDER;

    for (int ty = ly; ty < TILE; ty += GROUP) {
        for (int tx = lx; tx < TILE; tx += GROUP) {
            const int sx = clamp(ox + tx, 0, width - 1);
            const int sy = clamp(oy + ty, 0, height - 1);
            const half4 c = radiance[sy * width + sx];
            rg[ty][tx] = as_uint(c.xy);
            bz[ty][tx] = as_uint((half2)(c.z, 0.0h));
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
            const int y = ly + BORDER + dy;
            const int x = lx + BORDER + dx;
            const half w = kTap[dx + RADIUS] * kTap[dy + RADIUS];
            const half2 xy = as_half2(rg[y][x]);
            const half2 z = as_half2(bz[y][x]);
            const half3 c = (half3)(xy, z.x);
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
