// SGEMM-style inner loop for the timing model (isalens timing): each work-item accumulates a 4x4 block of
// C from a column of A and a row of B per step: 8 loads (two float4), 16 FMAs per step.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void sgemm_4x4(__global const float4 *restrict a, __global const float4 *restrict b,
               __global float4 *restrict c, int k_steps, int lda4, int ldb4)
{
    const int i = get_global_id(0);
    float4 c0 = 0.0f, c1 = 0.0f, c2 = 0.0f, c3 = 0.0f;
    for (int k = 0; k < k_steps; ++k) {
        const float4 av = a[k * lda4 + i];
        const float4 bv = b[k * ldb4 + i];
        c0 = fma((float4)(av.x), bv, c0);
        c1 = fma((float4)(av.y), bv, c1);
        c2 = fma((float4)(av.z), bv, c2);
        c3 = fma((float4)(av.w), bv, c3);
    }
    c[4 * i + 0] = c0;
    c[4 * i + 1] = c1;
    c[4 * i + 2] = c2;
    c[4 * i + 3] = c3;
}
