// Pointer chase (isalens' own code): one work-item follows a chain of indices, each load's address
// being the previous load's value, so every iteration pays one full load-to-use latency. Whether the
// load hits L1, L2, a last-level cache or DRAM depends on the chain's footprint, which the host sets;
// the loop is the same. -D SCALAR makes the index wave-uniform (the compiler may then use the scalar
// cache path, s_load), as in the "scalar" latency curves of the published measurements.
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
