// Pointer chase (isalens' own code): one work-item follows a chain of indices, each load's address
// being the previous load's value, so every iteration pays one full load-to-use latency. Whether the
// load hits L1, L2, a last-level cache or DRAM depends on the chain's footprint, which the host sets;
// the loop is the same. -D SCALAR makes the index wave-uniform (the compiler may then use the scalar
// cache path, s_load), as in the "scalar" latency curves of the published measurements. -D POINTERS follows a
// chain of 64-bit pointers instead (each element holds the next element's address, no index arithmetic), through
// vector loads, the loop shape of RRZE gpu-benches' HIP pointer chase (its generic pointers are flat loads). The
// host passes lane_stride 0 (every lane on one chain, as there); a per-lane start keeps the compiler from proving
// the chain wave-uniform and turning it into scalar loads.
#ifdef POINTERS
__kernel void pointer_chase(__global ulong *chain, uint lane_stride, uint steps, __global ulong *out) {
    __global ulong *at = chain + get_local_id(0) * lane_stride;
    __attribute__((opencl_unroll_hint(1)))
    for (uint i = 0; i < steps; i++) {
        at = (__global ulong *)*at;
    }
    out[get_global_id(0)] = (ulong)at;
}
#else
__kernel void pointer_chase(__global const uint *restrict next, uint start, uint steps,
                            __global uint *out) {
#ifdef SCALAR
    uint at = start;
#else
    uint at = start + get_local_id(0);
#endif
    __attribute__((opencl_unroll_hint(1)))
    for (uint i = 0; i < steps; i++) {
        at = next[at];
    }
    out[get_global_id(0)] = at;
}
#endif
