// Matrix product with a 4x4 register block per work-item: the loop body is one fetch
// clause (two float4 loads) and 16 MULADDs, the pattern of domain.md §1.4 on a small scale.
__kernel void mm_block(__global const float4 *a, __global const float4 *b, __global float4 *c, int n)
{
    const int i = get_global_id(0);
    const int stride = get_global_size(0);
    float4 acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
    for (int k = 0; k < n; ++k) {
        const float4 x = a[k * stride + i];
        const float4 y = b[k * stride + i];
        acc0 = mad((float4)(x.x), y, acc0);
        acc1 = mad((float4)(x.y), y, acc1);
        acc2 = mad((float4)(x.z), y, acc2);
        acc3 = mad((float4)(x.w), y, acc3);
    }
    c[4 * i + 0] = acc0;
    c[4 * i + 1] = acc1;
    c[4 * i + 2] = acc2;
    c[4 * i + 3] = acc3;
}
