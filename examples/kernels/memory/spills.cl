// Forced spilling: register budgets below what the code wants, so the compiler spills
// VGPRs to scratch and SGPRs into VGPR lanes (v_writelane/v_readlane).

__kernel __attribute__((amdgpu_num_vgpr(32)))
void vgpr_spill_poly(__global const float4 *restrict in, __global float4 *restrict out, int n)
{
    const int i = get_global_id(0);
    float4 c[12];
    for (int k = 0; k < 12; ++k)
        c[k] = in[i * 12 + k];
    float4 acc = (float4)(0.0f);
    for (int it = 0; it < n; ++it) {
#pragma unroll
        for (int k = 0; k < 12; ++k)
            acc = fma(acc, c[k], c[(k + it) % 12]);
    }
    out[i] = acc;
}

__kernel __attribute__((amdgpu_num_sgpr(24)))
void sgpr_spill_uniform(__global const int *restrict table, __global int *restrict out, int n)
{
    const int i = get_global_id(0);
    // 24 wave-uniform coefficients live across the whole loop, more than the SGPR budget.
    int coef[24];
    for (int k = 0; k < 24; ++k)
        coef[k] = table[k] * (k + 3);
    int s = i;
    for (int it = 0; it < n; ++it) {
#pragma unroll
        for (int k = 0; k < 24; ++k)
            s = (s ^ coef[k]) + (coef[(k + 7) % 24] >> (k & 7));
    }
    out[i] = s;
}
