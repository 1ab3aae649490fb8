// Dependent multiply-add chains, the loop shape of clpeak's compute tests (isalens' own code).
// T is the lane type: float, float2 ... float16, half*, double*, int*. Each vector component is one
// dependent chain (x <- x*x + c), so width W gives W independent chains per work-item; 16 multiply-adds
// per unrolled group, 128 groups: 4096 flops (or 2048 int ops, ITERS=64) per work-item.
// Integer rows reproduce the instructions the measured (vendor-compiled) code ran, which LLVM 19 would
// otherwise fuse into one v_mad_u64_u32 per step:
//   -D SPLIT_MAD : x*x, then + c, with an empty asm between them so the multiply stays v_mul_lo_u32
//                  (clpeak's "Integer compute": one multiply and one add per step); on float types the
//                  same split, v_mul_f32 + v_add_f32, is what LLVM builds a multiply-add into for gfx8
//                  when fp32 denormals are IEEE (Mesa Clover's cc1 invocation: the rx550-clover run)
//   -D MAD24     : one v_mad_u32_u24 per step and component (clpeak's "Integer compute Fast 24bit" with
//                  mad24()), written as inline asm because LLVM 19 compiles this accumulator form,
//                  x = mad24(x, x, c), mostly to v_mad_u64_u32; clpeak's own ping-pong form (x = mad24(y,
//                  x, y); y = mad24(x, y, x)) compiles to one v_mad_i32_i24 per step, the same issue rate
//   -D CLPEAK_FRAME -D W=<components> : the whole kernel clpeak times, not only its loop: the caller sets
//                  ITERS to clpeak's trip count (the same work per work-item at every width, so fewer
//                  trips for wider vectors), and the end sums the components into one scalar store, as
//                  clpeak's kernels do, instead of storing the vector
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef T
#define T float
#endif
#ifndef ITERS
#define ITERS 128
#endif
#if defined(MAD24)
#define NC (sizeof(T) / sizeof(int))
typedef union { T vec; int s[NC]; } lanes_t;
#define STEP(v, k) do { lanes_t a_ = {v}, k_ = {k}; \
    __attribute__((opencl_unroll_hint)) for (int c_ = 0; c_ < (int)NC; c_++) \
        __asm__ volatile("v_mad_u32_u24 %0, %0, %0, %1" : "+v"(a_.s[c_]) : "v"(k_.s[c_])); \
    v = a_.vec; } while (0)
#elif defined(SPLIT_MAD)
#define STEP(v, k) do { v = v * v; __asm__ volatile("" : "+v"(v)); v = v + k; } while (0)
#else
#define STEP(v, k) v = v * v + k
#endif
#define STEP4(v, k) STEP(v, k); STEP(v, k); STEP(v, k); STEP(v, k)
#define STEP16(v, k) STEP4(v, k); STEP4(v, k); STEP4(v, k); STEP4(v, k)

#if defined(CLPEAK_FRAME)
// clpeak's set-up: one chain value per component from the lane id (a broadcast), the other from the argument
// plus the component's index (distinct per component), so each component starts in its own registers
#define IOTA1 0
#define IOTA2 (T)(0, 1)
#define IOTA4 (T)(0, 1, 2, 3)
#define IOTA8 (T)(0, 1, 2, 3, 4, 5, 6, 7)
#define IOTA16 (T)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define IOTAW_(n) IOTA##n
#define IOTAW(n) IOTAW_(n)
#endif

__kernel void fma_chain(__global T *out, T seed) {
#if defined(CLPEAK_FRAME)
    T acc = (T)get_local_id(0);
    T inc = seed + IOTAW(W);
#else
    T acc = seed + (T)get_local_id(0);
    T inc = seed;
#endif
#if defined(MAD24)
    // clpeak's mad24 operands are all VGPRs (x = mad24(y, x, y)); the addend here is the uniform kernel argument,
    // which LLVM 19 re-copied from SGPRs inside the loop for int16 on gfx906/gfx908 (15 v_mov_b32 per 256
    // v_mad_u32_u24, code the measured kernel does not run). Defined once by an empty asm, it stays in VGPRs.
    {
        lanes_t k_ = {inc};
        __attribute__((opencl_unroll_hint)) for (int c_ = 0; c_ < (int)NC; c_++) __asm__ volatile("" : "+v"(k_.s[c_]));
        inc = k_.vec;
    }
#endif
    // one loop iteration = 16 steps per component: the harness divides by this
    __attribute__((opencl_unroll_hint(1)))
    for (int i = 0; i < ITERS; i++) {
        STEP16(acc, inc);
    }
#if defined(CLPEAK_FRAME)
    // the components summed pairwise (W - 1 adds), the sum stored in the first component's place
#define SUM1(v) (v)
#define SUM2(v) ((v).s0 + (v).s1)
#define SUM4(v) SUM2((v).lo + (v).hi)
#define SUM8(v) SUM4((v).lo + (v).hi)
#define SUM16(v) SUM8((v).lo + (v).hi)
#define SUMW_(n, v) SUM##n(v)
#define SUMW(n, v) SUMW_(n, v)
#if W == 1
    out[get_global_id(0)] = acc;
#else
    out[get_global_id(0)].s0 = SUMW(W, acc);
#endif
#else
    out[get_global_id(0)] = acc;
#endif
}
