// Independent multiply-add accumulators, the loop shape of Chips and Cheese's OpenCL FP32 FMA rate test as
// its source describes it (clamchowder/Microbenchmarks, GpuMemLatency/instruction_rate_kernel.cl,
// fp32_fma_rate_test); isalens' own code. Eight float4 accumulators per work-item, each updated once per loop
// iteration by v += a * v (contracted to one FMA per component, OpenCL's default FP_CONTRACT): 32 independent
// chains per lane, 8 x 4 x 2 = 64 flops per loop iteration, and nothing else in the loop but its counter.
__kernel void fma_independent(__global const float4 *in, int count, __global float4 *out) {
    int t = get_local_id(0) & 511;
    float4 v0 = in[t], v1 = in[t + 1], v2 = in[t + 2], v3 = in[t + 3];
    float4 v4 = in[t + 4], v5 = in[t + 5], v6 = in[t + 6], v7 = in[t + 7];
    float4 a = in[0];
    // one loop iteration = one FMA per accumulator component: the harness divides by this
    __attribute__((opencl_unroll_hint(1)))
    for (int i = 0; i < count; i++) {
        v0 += a * v0;
        v1 += a * v1;
        v2 += a * v2;
        v3 += a * v3;
        v4 += a * v4;
        v5 += a * v5;
        v6 += a * v6;
        v7 += a * v7;
    }
    out[get_global_id(0)] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
}
