// Advice example (LDS access): each work-item reads two floats FAR elements apart from one LDS row. Beyond
// 255 elements ds_read2_b32's 8-bit offsets cannot hold the distance, so the reads stay separate.

#ifndef FAR
#define FAR 300
#endif

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void lds_far(__global const float *restrict in, __global float *restrict out)
{
    __local float row[64 + FAR];
    const int l = get_local_id(0);
    const int g = get_global_id(0);
    for (int k = l; k < 64 + FAR; k += 64)
        row[k] = in[(int)get_group_id(0) * (64 + FAR) + k];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = row[l] * row[l + FAR];
}
