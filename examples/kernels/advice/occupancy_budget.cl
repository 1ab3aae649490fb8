// Advice example (occupancy): a 1024-thread workgroup (16 waves, 4 per SIMD) whose VGPR count lets only
// one group per CU fit (domain.md §1.3). `isalens advise` names the cheapest step; recompiling with
// -D BUDGET=<advised VGPRs> applies it.

#ifndef BUDGET
#define BUDGET 256
#endif

__kernel __attribute__((reqd_work_group_size(1024, 1, 1))) __attribute__((amdgpu_num_vgpr(BUDGET)))
void occupancy_budget(__global const float4 *restrict in, __global float4 *restrict out)
{
    const int i = get_global_id(0);
    float4 a[9];
#pragma unroll
    for (int k = 0; k < 9; ++k)
        a[k] = in[i * 9 + k];
    float4 s = (float4)(0.0f);
#pragma unroll
    for (int k = 0; k < 9; ++k)
        s = fma(a[k], a[(k * 4 + 1) % 9], s) * a[(k + 5) % 9];
    out[i] = s;
}
