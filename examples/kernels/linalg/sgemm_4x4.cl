// Tiled SGEMM, C = alpha * A * B + beta * C (row-major, dimensions multiples of 64).
// A 16x16 group computes a 64x64 block of C; each thread owns a 4x4 register block.
// Tiles of A and B (64x16 and 16x64) are staged through LDS once per k-step.

#define TS 64
#define KS 16
#define RB 4

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void sgemm_4x4(__global const float *restrict a, __global const float *restrict b,
               __global float *restrict c, int m, int n, int k, float alpha, float beta)
{
    __local float a_tile[KS][TS + 1];
    __local float b_tile[KS][TS];

    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int row0 = get_group_id(1) * TS;
    const int col0 = get_group_id(0) * TS;
    const int lid = ty * 16 + tx;

    float acc[RB][RB];
    for (int i = 0; i < RB; ++i)
        for (int j = 0; j < RB; ++j)
            acc[i][j] = 0.0f;

    for (int kk = 0; kk < k; kk += KS) {
        // 256 threads load 1024 elements of each tile: four each.
        for (int e = lid; e < TS * KS; e += 256) {
            const int ar = e / KS, ac = e % KS;
            a_tile[ac][ar] = a[(row0 + ar) * k + kk + ac];
            const int br = e / TS, bc = e % TS;
            b_tile[br][bc] = b[(kk + br) * n + col0 + bc];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int p = 0; p < KS; ++p) {
            float av[RB], bv[RB];
            for (int i = 0; i < RB; ++i)
                av[i] = a_tile[p][ty * RB + i];
            for (int j = 0; j < RB; ++j)
                bv[j] = b_tile[p][tx * RB + j];
            for (int i = 0; i < RB; ++i)
                for (int j = 0; j < RB; ++j)
                    acc[i][j] = fma(av[i], bv[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int i = 0; i < RB; ++i) {
        const int r = row0 + ty * RB + i;
        for (int j = 0; j < RB; ++j) {
            const int col = col0 + tx * RB + j;
            c[r * n + col] = alpha * acc[i][j] + beta * c[r * n + col];
        }
    }
}
