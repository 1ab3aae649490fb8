// Multi-dimensional work-items: local ids 1 and 2 and group ids 1 and 2 arrive in
// separate VGPRs/SGPRs (or packed into v0 on some targets).

__kernel __attribute__((reqd_work_group_size(4, 4, 4)))
void box3d(__global const float *restrict vol, __global float *restrict out, int nx, int ny, int nz)
{
    __local float cube[6][6][6];
    const int lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
    const int bx = get_group_id(0) * 4, by = get_group_id(1) * 4, bz = get_group_id(2) * 4;
    for (int z = lz; z < 6; z += 4)
        for (int y = ly; y < 6; y += 4)
            for (int x = lx; x < 6; x += 4) {
                const int gx = clamp(bx + x - 1, 0, nx - 1);
                const int gy = clamp(by + y - 1, 0, ny - 1);
                const int gz = clamp(bz + z - 1, 0, nz - 1);
                cube[z][y][x] = vol[(gz * ny + gy) * nx + gx];
            }
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
    for (int dz = 0; dz < 3; ++dz)
        for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx)
                s += cube[lz + dz][ly + dy][lx + dx];
    out[((bz + lz) * ny + by + ly) * nx + bx + lx] = s * (1.0f / 27.0f);
}

__kernel void group_ids(__global int4 *restrict out)
{
    const int flat = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
    const int lflat = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
    out[flat * get_local_size(0) * get_local_size(1) * get_local_size(2) + lflat] =
        (int4)(get_group_id(1), get_group_id(2), get_local_id(1), get_local_id(2));
}
