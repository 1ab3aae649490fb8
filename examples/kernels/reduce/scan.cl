// Work-group inclusive prefix sum (Hillis-Steele in LDS, double buffered) and a
// histogram built with local atomics whose results are ignored.

__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void inclusive_scan(__global const uint *restrict in, __global uint *restrict out, int n)
{
    __local uint buf[2][128];
    const int lid = get_local_id(0);
    const int gid = get_global_id(0);
    int src = 0;
    buf[0][lid] = gid < n ? in[gid] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < 128; off <<= 1) {
        const uint v = buf[src][lid];
        buf[1 - src][lid] = lid >= off ? v + buf[src][lid - off] : v;
        src = 1 - src;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gid < n)
        out[gid] = buf[src][lid];
}

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void histogram256(__global const uchar *restrict in, __global uint *restrict bins, int n)
{
    __local uint local_bins[256];
    const int lid = get_local_id(0);
    local_bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[in[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (local_bins[lid] != 0)
        atomic_add(&bins[lid], local_bins[lid]);
}
