// Matrix-core kernel with fp16 inputs: half4 fragments of A and B staged through LDS
// and fed to the 16x16x16 f16 MFMA, accumulating in fp32.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef float v4f __attribute__((ext_vector_type(4)));
typedef half v4h __attribute__((ext_vector_type(4)));

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mfma_16x16x16_f16(__global const half *restrict a, __global const half *restrict b,
                       __global float *restrict c, int k)
{
    __local half a_tile[16][16];
    __local half b_tile[16][16];
    const int lane = get_local_id(0);
    const int tile = get_group_id(0);
    v4f acc = (v4f)(0.0f);
    for (int p = 0; p < k; p += 16) {
        // 64 lanes move 256 halves of each tile, four apiece.
        const int r = lane / 4, q = (lane % 4) * 4;
        vstore4(vload4(0, a + (tile * 16 + r) * k + p + q), 0, &a_tile[r][q]);
        vstore4(vload4(0, b + (p + r) * 16 + q), 0, &b_tile[r][q]);
        barrier(CLK_LOCAL_MEM_FENCE);
        const int row = lane % 16, kq = (lane / 16) * 4;
        v4h av, bv;
        for (int e = 0; e < 4; ++e) {
            av[e] = a_tile[row][kq + e];
            bv[e] = b_tile[kq + e][row];
        }
        acc = __builtin_amdgcn_mfma_f32_16x16x16f16(av, bv, acc, 0, 0, 0);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int e = 0; e < 4; ++e)
        c[(tile * 16 + (lane / 16) * 4 + e) * 16 + lane % 16] = acc[e];
}
