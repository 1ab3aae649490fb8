// Work-group sum in local memory: a loop around an LDS clause with a barrier (Evergreen LDS ops).
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reduce(__global const float *in, __global float *out)
{
    __local float part[64];
    const int lid = get_local_id(0);
    part[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 32; s > 0; s >>= 1) {
        if (lid < s)
            part[lid] += part[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = part[0];
}
