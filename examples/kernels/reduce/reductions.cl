// Reductions: an LDS tree reduction with a shrinking loop, a wave-level reduction that
// exchanges values through LDS instead of subgroup operations, and a min/max/argmin
// reduction that carries three values per lane.

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void tree_sum(__global const float *restrict in, __global float *restrict partial, int n)
{
    __local float scratch[WG];
    const int lid = get_local_id(0);
    float v = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        v += in[i];
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = WG / 2; stride > 0; stride >>= 1) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

// Butterfly over a 64-lane slice of LDS: each step writes, fences and reads the partner.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void wave_sum_lds(__global const int *restrict in, __global int *restrict out, int n)
{
    __local int lane_val[64];
    const int lane = get_local_id(0);
    const int gid = get_global_id(0);
    int v = gid < n ? in[gid] : 0;
    for (int mask = 1; mask < 64; mask <<= 1) {
        lane_val[lane] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v += lane_val[lane ^ mask];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0)
        out[get_group_id(0)] = v;
}

__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void minmax_argmin(__global const float *restrict in, __global float4 *restrict out, int n)
{
    __local float lmin[128];
    __local float lmax[128];
    __local int larg[128];
    const int lid = get_local_id(0);
    float mn = INFINITY, mx = -INFINITY;
    int arg = -1;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        const float x = in[i];
        if (x < mn) {
            mn = x;
            arg = i;
        }
        mx = fmax(mx, x);
    }
    lmin[lid] = mn;
    lmax[lid] = mx;
    larg[lid] = arg;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 64; s > 0; s >>= 1) {
        if (lid < s) {
            const float other = lmin[lid + s];
            if (other < lmin[lid] || (other == lmin[lid] && larg[lid + s] < larg[lid])) {
                lmin[lid] = other;
                larg[lid] = larg[lid + s];
            }
            lmax[lid] = fmax(lmax[lid], lmax[lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = (float4)(lmin[0], lmax[0], as_float(larg[0]), 0.0f);
}
