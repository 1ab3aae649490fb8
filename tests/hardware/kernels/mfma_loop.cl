// Matrix-core loop (isalens' own code): each wave issues a chain of MFMA instructions accumulating into
// the same registers, the shape of clpeak's mfma_* tests on CDNA (a wave keeps the matrix unit busy;
// several waves per SIMD hide the dependency). -D KIND selects the instruction:
//   F16  : v_mfma_f32_32x32x8_f16  (32*32*8*2 = 16384 flops per instruction per wave)
//   I8   : v_mfma_i32_32x32x16_i8  (32*32*16*2 = 32768 ops; gfx940+)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef float float16_t __attribute__((ext_vector_type(16)));
typedef int int16_t_ __attribute__((ext_vector_type(16)));
typedef half half4_t __attribute__((ext_vector_type(4)));

#ifndef KIND
#define KIND F16
#endif
#define F16 1
#define I8 2

__kernel void mfma_loop(__global float *out, float seed, uint iters) {
#if KIND == F16
    half4_t a = (half4_t)((half)seed);
    half4_t b = (half4_t)((half)get_local_id(0));
    float16_t acc = (float16_t)0.0f;
    __attribute__((opencl_unroll_hint(1)))
    for (uint i = 0; i < iters; i++) {
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
    }
    out[get_global_id(0)] = acc.s0 + acc.sf;
#else
    long a = (long)seed;
    long b = (long)get_local_id(0);
    int16_t_ acc = (int16_t_)0;
    __attribute__((opencl_unroll_hint(1)))
    for (uint i = 0; i < iters; i++) {
        acc = __builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, acc, 0, 0, 0);
        acc = __builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, acc, 0, 0, 0);
    }
    out[get_global_id(0)] = (float)(acc.s0 + acc.sf);
#endif
}
