// A tree reduction in local memory with a barrier per step (the shape Rodinia's particle likelihood_kernel
// ends with): the first step and the loop's step end alike (barrier, compare, branch), and llc-19's branch
// folder merges the two tails into a new block after register allocation. Its live-ins are recomputed from
// the successors' (LivePhysRegs::addBlockLiveIns), which adds every sub-register tuple overlapping a live lane.
// `in` and `sums` are loaded together into four SGPRs (both are read before the loop); only `sums`, the upper
// pair, is read after it, yet on gfx1030/gfx1100 the merged block lists a three-register tuple that also
// holds part of the lower pair, which no instruction below reads.
__kernel void block_sums(__global const float *restrict in, __global float *restrict sums,
                         __local float *tmp)
{
    const int lid = get_local_id(0);
    const int i = get_global_id(0);
    const float carry = sums[0];
    tmp[lid] = in[i] * in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        sums[get_group_id(0)] = carry + tmp[0];
}
