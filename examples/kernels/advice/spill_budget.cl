// Advice example (spills): a polynomial loop whose twelve float4 coefficients do not fit the VGPR
// budget BUDGET, so clang spills them to scratch. `isalens advise` names the slots and the budget that
// keeps them in registers; recompiling with -D BUDGET=<that budget> shows whether the spills go away.

#ifndef BUDGET
#define BUDGET 32
#endif

__kernel __attribute__((amdgpu_num_vgpr(BUDGET)))
void spill_budget(__global const float4 *restrict in, __global float4 *restrict out, int n)
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
