// Matrix-core (MFMA) kernels, fp32 inputs. One wave64 per group. The accumulators are
// 4-, 16- and 32-float vectors that the compiler keeps in AGPRs (or unified VGPRs on
// gfx90a+), which is what these kernels exist to exercise.

typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v32f __attribute__((ext_vector_type(32)));

// C(32x32) += A(32xK) * B(Kx32), one k per instruction; lanes 0-31 and 32-63 form the
// two blocks of the 32x32x1 shape, fed with even and odd k.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mfma_32x32x1(__global const float *restrict a, __global const float *restrict b,
                  __global float *restrict c, int k)
{
    const int lane = get_local_id(0);
    const int row = lane % 32;
    const int half_sel = lane / 32;
    const int tile = get_group_id(0);
    v32f acc = (v32f)(0.0f);
    for (int p = half_sel; p < k; p += 2) {
        const float av = a[(tile * 32 + row) * k + p];
        const float bv = b[p * 32 + row];
        acc = __builtin_amdgcn_mfma_f32_32x32x1f32(av, bv, acc, 0, 0, 0);
    }
    __global float *dst = c + (tile * 64 + lane) * 32;
#pragma unroll
    for (int j = 0; j < 32; ++j)
        dst[j] = acc[j];
}

// Sixteen 16x16x4 steps per iteration, with a bias applied between k-blocks so the
// accumulator is read by VALU code as well as by the matrix core.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mfma_16x16x4(__global const float *restrict a, __global const float *restrict b,
                  __global const float *restrict bias, __global v4f *restrict c, int k)
{
    const int lane = get_local_id(0);
    const int tile = get_group_id(0);
    v4f acc = (v4f)(0.0f);
    for (int p = 0; p < k; p += 4) {
        const float av = a[(tile * 16 + lane % 16) * k + p + lane / 16];
        const float bv = b[(p + lane / 16) * 16 + lane % 16];
        acc = __builtin_amdgcn_mfma_f32_16x16x4f32(av, bv, acc, 0, 0, 0);
        if ((p & 63) == 60)
            acc += bias[p / 64];
    }
    c[tile * 64 + lane] = acc;
}

// Sixteen independent 4x4 products per wave (the 4x4x1 shape has 16 blocks); two
// accumulators are kept live at once.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mfma_4x4x1_batched(__global const float *restrict a, __global const float *restrict b,
                        __global v4f *restrict c, int k)
{
    const int lane = get_local_id(0);
    const int g = get_group_id(0);
    v4f even = (v4f)(0.0f), odd = (v4f)(0.0f);
    for (int p = 0; p < k; p += 2) {
        const float a0 = a[(g * k + p) * 64 + lane];
        const float b0 = b[(g * k + p) * 64 + lane];
        const float a1 = a[(g * k + p + 1) * 64 + lane];
        const float b1 = b[(g * k + p + 1) * 64 + lane];
        even = __builtin_amdgcn_mfma_f32_4x4x1f32(a0, b0, even, 0, 0, 0);
        odd = __builtin_amdgcn_mfma_f32_4x4x1f32(a1, b1, odd, 0, 0, 0);
    }
    c[g * 64 + lane] = even + odd;
}
