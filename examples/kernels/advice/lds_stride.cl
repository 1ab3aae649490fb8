// Advice example (LDS bank conflicts): work-item l reads row[l * STRIDE]. With STRIDE 2 (8 bytes) two
// lanes of every 32-lane pass share each even bank; an odd stride spreads them over all 32 banks.

#ifndef STRIDE
#define STRIDE 2
#endif

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void lds_stride(__global const float *restrict in, __global float *restrict out)
{
    __local float row[64 * STRIDE];
    const int l = get_local_id(0);
    for (int k = l; k < 64 * STRIDE; k += 64)
        row[k] = in[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = row[l * STRIDE];
}
