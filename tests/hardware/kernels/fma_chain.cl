// Dependent multiply-add chains, the loop shape of clpeak's compute tests (isalens' own code).
// T is the lane type: float, float2 ... float16, half*, double*, int*. Each vector component is one
// dependent chain (x <- x*x + c), so width W gives W independent chains per work-item; 16 multiply-adds
// per unrolled group, 128 groups: 4096 flops (or 2048 int ops, ITERS=64) per work-item.
// -D MAD24 uses mad24() instead (clpeak's "Integer compute Fast 24bit"). Known gap: LLVM 19 turns this
// chain into v_mad_u64_u32, not the measured v_mad_u32_u24 (see docs/timing-validation.md).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef T
#define T float
#endif
#ifndef ITERS
#define ITERS 128
#endif
#ifdef MAD24
#define STEP(v, k) v = mad24(v, v, k)
#else
#define STEP(v, k) v = v * v + k
#endif
#define STEP4(v, k) STEP(v, k); STEP(v, k); STEP(v, k); STEP(v, k)
#define STEP16(v, k) STEP4(v, k); STEP4(v, k); STEP4(v, k); STEP4(v, k)

__kernel void fma_chain(__global T *out, T seed) {
    T acc = seed + (T)get_local_id(0);
    T inc = seed;
    // one loop iteration = 16 steps per component: the harness divides by this
    __attribute__((opencl_unroll_hint(1)))
    for (int i = 0; i < ITERS; i++) {
        STEP16(acc, inc);
    }
    out[get_global_id(0)] = acc;
}
