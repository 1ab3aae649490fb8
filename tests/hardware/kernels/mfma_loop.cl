// Matrix-core loop (isalens' own code), the shape of clpeak's mfma_* tests on CDNA3 (src/rocm/rocm_kernels/
// mfma_*.hip at clpeak d0cd56f): each wave keeps 8 independent accumulators and issues one 16x16 MFMA into
// each per loop iteration, so 8 MFMAs per iteration and wave. -D KIND selects the instruction:
//   F16  : v_mfma_f32_16x16x16_f16      (16*16*16*2 = 8192 flops per instruction and wave)
//   BF16 : v_mfma_f32_16x16x16_bf16     (the "_1k" bf16 form, gfx90a+; 8192 flops)
//   I8   : v_mfma_i32_16x16x32_i8       (16*16*32*2 = 16384 ops; gfx940+)
//   FP8  : v_mfma_f32_16x16x32_fp8_fp8  (16384 flops; gfx940+)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef float float4_t __attribute__((ext_vector_type(4)));
typedef int int4_t __attribute__((ext_vector_type(4)));
typedef half half4_t __attribute__((ext_vector_type(4)));
typedef short short4_t __attribute__((ext_vector_type(4)));

#define F16 1
#define I8 2
#define BF16 3
#define FP8 4
#ifndef KIND
#define KIND F16
#endif
#define ACCS 8

#if KIND == F16
#define OPERAND half4_t
#define MFMA(a, b, c) __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0)
#elif KIND == BF16
#define OPERAND short4_t
#define MFMA(a, b, c) __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0)
#elif KIND == I8
#define OPERAND long
#define MFMA(a, b, c) __builtin_amdgcn_mfma_i32_16x16x32_i8(a, b, c, 0, 0, 0)
#else
#define OPERAND long
#define MFMA(a, b, c) __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, 0, 0, 0)
#endif
#if KIND == I8
#define ACC int4_t
#else
#define ACC float4_t
#endif

__kernel void mfma_loop(__global float *out, float seed, uint iters) {
    OPERAND a = (OPERAND)((short)seed);
    OPERAND b = (OPERAND)((short)get_local_id(0));
    ACC acc[ACCS];
    __attribute__((opencl_unroll_hint))
    for (int j = 0; j < ACCS; j++) acc[j] = (ACC)0;
    __attribute__((opencl_unroll_hint(1)))
    for (uint i = 0; i < iters; i++) {
        __attribute__((opencl_unroll_hint))
        for (int j = 0; j < ACCS; j++) acc[j] = MFMA(a, b, acc[j]);
    }
    float s = 0.0f;
    __attribute__((opencl_unroll_hint))
    for (int j = 0; j < ACCS; j++) s += (float)(acc[j].s0 + acc[j].s3);
    out[get_global_id(0)] = s;
}
