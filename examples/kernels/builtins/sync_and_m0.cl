// Builtins touching barriers and M0: explicit s_barrier between LDS phases,
// ds_append/ds_consume (the LDS address goes through M0), and readlane with a
// runtime lane number.

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void two_phase_barrier(__global const float *restrict in, __global float *restrict out)
{
    __local float a[64];
    __local float b[64];
    const int lid = __builtin_amdgcn_workitem_id_x();
    a[lid] = in[get_global_id(0)];
    __builtin_amdgcn_s_waitcnt(0);
    __builtin_amdgcn_s_barrier();
    b[lid] = a[63 - lid] + a[lid];
    __builtin_amdgcn_s_waitcnt(0);
    __builtin_amdgcn_s_barrier();
    out[get_global_id(0)] = b[(lid + 1) & 63] * 0.5f;
}

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void append_consume(__global const int *restrict in, __global int *restrict out, __global int *restrict tally)
{
    __local int counters[2];
    const int lid = get_local_id(0);
    if (lid < 2)
        counters[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int v = in[get_global_id(0)];
    int slot = -1;
    if (v & 1)
        slot = __builtin_amdgcn_ds_append(&counters[0]);
    else if (v < 0)
        slot = __builtin_amdgcn_ds_consume(&counters[1]);
    out[get_global_id(0)] = slot;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        tally[get_group_id(0)] = counters[0] - counters[1];
}

__kernel void readlane_dynamic(__global const int *restrict in, __global const int *restrict which,
                               __global int *restrict out)
{
    const int i = get_global_id(0);
    const int lane = __builtin_amdgcn_readfirstlane(which[get_group_id(0)]) & 31;
    const int v = in[i];
    out[i] = v - __builtin_amdgcn_readlane(v, lane);
}
