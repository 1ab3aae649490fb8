// Sweep example: a 3x3 box blur staging a TILE x TILE block plus a one-texel border in LDS (domain.md §1.3).
// The workgroup is TILE x TILE threads, so TILE sets the group size, the LDS bytes and the occupancy:
//   isalens sweep examples/kernels/sweep/tile_blur.cl -D TILE=8,16,32 --arch gfx902,gfx1030

#ifndef TILE
#define TILE 16
#endif
#define SIDE (TILE + 2)

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void tile_blur(__global const float *restrict src, __global float *restrict dst, int width, int height)
{
    __local float tile[SIDE * SIDE];
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int ox = (int)get_group_id(0) * TILE - 1;
    const int oy = (int)get_group_id(1) * TILE - 1;
    for (int t = ly * TILE + lx; t < SIDE * SIDE; t += TILE * TILE) {
        const int x = clamp(ox + t % SIDE, 0, width - 1);
        const int y = clamp(oy + t / SIDE, 0, height - 1);
        tile[t] = src[y * width + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float sum = 0.0f;
#pragma unroll
    for (int dy = 0; dy < 3; ++dy)
#pragma unroll
        for (int dx = 0; dx < 3; ++dx)
            sum += tile[(ly + dy) * SIDE + lx + dx];
    const int gx = (int)get_global_id(0);
    const int gy = (int)get_global_id(1);
    if (gx < width && gy < height)
        dst[gy * width + gx] = sum * (1.0f / 9.0f);
}
