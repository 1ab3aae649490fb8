// A value undefined on one way into a join: a loop that may run no time leaves `flag` unset, so llc-19 gives
// the loop's guard branch an empty block of its own holding only `; implicit-def:` for the register that
// carries `flag` (`.LBB0_9: ; implicit-def: $sgpr2_sgpr3` / `.LBB0_10: ...`, gfx902); the loop's exits
// jump past it to the join, where the value is read. The register is undefined on the guard's way only:
// it is not live into the guard's block, and still live on the loop's ways out.
__kernel void empty_undef(__global int *out, __global const int *in, __global const int *w, int n,
                          __local int *tmp)
{
    const int tx = get_local_id(0);
    bool flag;
    for (int i = 0; i < n; i++) {
        flag = false;
        if (tx > i && tx < 200 - i) {
            flag = true;
            tmp[tx] = in[tx + i] + w[tx * n + i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (i == n - 1)
            break;
        if (flag)
            tmp[tx + 1] = tmp[tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const int g = get_global_id(0);
    out[g + 256] = tmp[tx ^ 1] * n + w[g];
    if (flag)
        out[g] = tmp[tx];
}
