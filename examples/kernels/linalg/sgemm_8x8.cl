// Tiled SGEMM with 8x8 register blocking: a 16x16 group computes a 128x128 block of C.
// Operands are read from LDS as float4 pairs; the 64 accumulators dominate pressure.

#define TS 128
#define KS 8
#define RB 8

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void sgemm_8x8(__global const float *restrict a, __global const float4 *restrict b,
               __global float4 *restrict c, int m, int n, int k)
{
    __local float4 a_tile[KS][TS / 4];
    __local float4 b_tile[KS][TS / 4];

    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int lid = ty * 16 + tx;
    const int row0 = get_group_id(1) * TS;
    const int col0 = get_group_id(0) * TS;
    const int n4 = n / 4;

    float8 acc[RB];
    for (int i = 0; i < RB; ++i)
        acc[i] = (float8)(0.0f);

    for (int kk = 0; kk < k; kk += KS) {
        {
            // A tile: 128 rows x 8 k, stored k-major as float4 groups of rows.
            const int r = lid / 2, kh = (lid % 2) * 4;
            const float4 v = vload4(0, a + (size_t)(row0 + r) * k + kk + kh);
            ((__local float *)a_tile[kh + 0])[r] = v.x;
            ((__local float *)a_tile[kh + 1])[r] = v.y;
            ((__local float *)a_tile[kh + 2])[r] = v.z;
            ((__local float *)a_tile[kh + 3])[r] = v.w;
            // B tile: 8 k-rows x 128 columns = 256 float4.
            const int br = lid / (TS / 4), bc = lid % (TS / 4);
            b_tile[br][bc] = b[(size_t)(kk + br) * n4 + col0 / 4 + bc];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int p = 0; p < KS; ++p) {
            const float4 a0 = a_tile[p][ty * 2];
            const float4 a1 = a_tile[p][ty * 2 + 1];
            const float4 b0 = b_tile[p][tx * 2];
            const float4 b1 = b_tile[p][tx * 2 + 1];
            const float av[RB] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float8 bv = (float8)(b0, b1);
#pragma unroll
            for (int i = 0; i < RB; ++i)
                acc[i] = fma((float8)(av[i]), bv, acc[i]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int i = 0; i < RB; ++i) {
        const size_t r = (size_t)(row0 + ty * RB + i);
        c[r * n4 + col0 / 4 + tx * 2] = acc[i].lo;
        c[r * n4 + col0 / 4 + tx * 2 + 1] = acc[i].hi;
    }
}
